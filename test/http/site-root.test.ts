import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * Issue 28: the site root answered a JSON 404 to a person typing the server's address. It is a small
 * HTML page linking to the dashboard, the console and the docs; other unknown paths keep the 404
 * envelope, and so do the API bases (test/http/bases.test.ts: a base owning its host keeps its root).
 */
describe('the site root', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  test('GET / is a page linking to the dashboard, the console and the docs', async () => {
    const root = await server.http.get('/', { headers: { accept: 'text/html' } });
    assert.equal(root.status, 200);
    assert.match(String(root.headers['content-type']), /^text\/html/);
    assert.match(String(root.headers['content-security-policy']), /script-src 'self'/);
    for (const href of [
      'https://localhost/dashboard/',
      'https://localhost/console/',
      'https://localhost/giftcards-sandbox/docs',
      'https://localhost/giftcards-sandbox/docs/getting-started',
      'https://localhost/topups-sandbox/docs/getting-started',
      '/docs/errors',
    ])
      assert.ok(root.text.includes(`href="${href}"`), href);
    // whatever the client accepts: a person's address bar, or curl
    assert.equal((await server.http.get('/', { headers: { accept: '*/*' } })).status, 200);
  });

  test('every other path outside the bases is still the 404 envelope', async () => {
    const missing = await server.http.get('/nothing-here');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, 'RESOURCE_NOT_FOUND');
    assert.equal((await server.http.get('/giftcards-sandbox/')).status, 404);
  });

  test('getting started sends customers to the dashboard for credentials, and curl trusts the development CA', async () => {
    for (const base of ['/giftcards-sandbox', '/topups-sandbox']) {
      const page = (
        await server.http.get(`${base}/docs/getting-started`, { headers: { accept: 'text/html' } })
      ).text;
      assert.ok(page.includes('href="https://localhost/dashboard/#/credentials"'), base);
      const customer = page.slice(page.indexOf('id="credentials"'), page.indexOf('class="muted"'));
      assert.doesNotMatch(customer, /npx airgift/, 'the operator command is for operators');
      assert.match(page, /Operators:[^<]*<code>[^<]*<\/code>; <code>npx airgift credentials create<\/code>/);
      const curls = page.match(/curl -s [^\n]*/g) ?? [];
      assert.equal(curls.length, 2);
      const ca = `${server.config.dataDir}/tls/ca.crt`;
      for (const line of curls) assert.ok(line.includes(`--cacert ${ca}`), line);
    }
  });

  test("the reference's introduction lists the error codes (no table in a narrow column)", async () => {
    const doc = (await server.http.get('/giftcards-sandbox/openapi.json')).body;
    assert.doesNotMatch(doc.info.description, /\| errorCode \|/);
    assert.match(doc.info.description, /^- \*\*`INVALID_REQUEST`\*\* \(400\): /m);
  });
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createContractChecker } from '../harness/contract.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 5: each base publishes an OpenAPI 3.1 document generated from its route schemas, and the
// test harness validates every response against it.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('every base publishes an OpenAPI 3.1 document with its servers, paths, scopes and error codes', async () => {
  for (const [prefix, path, scope] of [
    ['/giftcards-sandbox', '/accounts/balance', 'developer'],
    ['/topups', '/accounts/balance', 'read-prepaid-balance'],
    ['/auth', '/oauth/token', null],
    ['/admin', '/accounts', null],
  ] as const) {
    const answer = await server.http.get(`${prefix}/openapi.json`);
    assert.equal(answer.status, 200, prefix);
    const doc = answer.body;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.servers.length >= 1);
    const op = doc.paths[path]?.get ?? doc.paths[path]?.post;
    assert.ok(op, `${prefix} documents ${path}`);
    assert.ok(op.responses.default, 'errors are documented');
    if (scope) assert.deepEqual(op.security, [{ bearer: [scope] }]);
    assert.ok(doc['x-error-codes'].some((e: any) => e.code === 'UNPROCCESSABLE_ENTITY'));
  }
  const giftcards = (await server.http.get('/giftcards/openapi.json')).body;
  assert.deepEqual(
    giftcards.servers.map((s: any) => s.url),
    ['https://localhost/giftcards', 'https://localhost/giftcards-sandbox'],
  );
});

test('the docs page is served to browsers without a token or the vendor media type', async () => {
  const page = await server.http.get('/topups-sandbox/docs', { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(page.text, /\/accounts\/balance/);
  assert.match(page.text, /id="TOKEN_EXPIRED"/);
});

test('the contract checker fails a response its document does not describe', () => {
  const doc = {
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
                },
              },
            },
          },
        },
      },
    },
  };
  const checker = createContractChecker({ demo: doc });
  assert.equal(checker.check('demo', 'GET', '/things/7', 200, { id: 7 }, 'application/json'), null);
  // A deliberately wrong answer: the document says integer, the body has a string.
  assert.match(
    checker.check('demo', 'GET', '/things/7', 200, { id: '7' }, 'application/json')?.problem ?? '',
    /integer/,
  );
  assert.match(
    checker.check('demo', 'GET', '/things/7', 201, { id: 7 }, 'application/json')?.problem ?? '',
    /not described/,
  );
  assert.match(
    checker.check('demo', 'POST', '/things/7', 200, {}, 'application/json')?.problem ?? '',
    /no operation/,
  );
});

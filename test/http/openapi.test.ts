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

test('the reference page loads Scalar from this server, under a CSP that allows self-hosted assets only', async () => {
  const page = await server.http.get('/topups-sandbox/docs', { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /font-src 'self'(;|$)/);
  assert.doesNotMatch(page.text, /https?:\/\/(?!localhost)[a-z]/, 'no third-party URL in the page');
  assert.match(page.text, /src="\/topups-sandbox\/docs\/assets\/scalar\.js"/);
  assert.match(page.text, /data-document="\/topups-sandbox\/openapi\.json"/);
  const bundle = await server.http.get('/topups-sandbox/docs/assets/scalar.js');
  assert.equal(bundle.status, 200);
  assert.match(String(bundle.headers['content-type']), /javascript/);
  assert.ok(bundle.text.length > 1_000_000, 'the standalone bundle from node_modules');
});

test('each product has a getting-started page with its token audience and sandbox test values', async () => {
  const giftcards = await server.http.get('/giftcards-sandbox/docs/getting-started');
  assert.equal(giftcards.status, 200);
  assert.match(giftcards.text, /&quot;audience&quot;:&quot;https:\/\/localhost\/giftcards-sandbox&quot;/);
  assert.match(giftcards.text, /<td>25<\/td><td>REFUNDED at once/);
  const topups = await server.http.get('/topups/docs/getting-started');
  assert.match(topups.text, /99993/);
  assert.match(topups.text, /OPERATOR_NOT_IN_SERVICE/);
  assert.match(String(topups.headers['content-security-policy']), /default-src 'self'/);
});

test('the error page renders code, not backticks, and every error links to its row', async () => {
  const page = await server.http.get('/docs/errors');
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.text, /`/);
  assert.match(page.text, /<code>Retry-After<\/code>/);
  assert.match(page.text, /id="OPERATOR_NOT_IN_SERVICE"/);
  assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
  const missing = await server.http.get('/giftcards-sandbox/products');
  assert.equal(missing.body.infoLink, 'https://localhost/docs/errors#AUTHENTICATION_FAILURE');
});

test('operations carry summaries, tags, named schemas, declared scopes and their error statuses', async () => {
  const doc = (await server.http.get('/giftcards/openapi.json')).body;
  const orders = doc.paths['/orders'].post;
  assert.equal(orders.summary, 'Order gift cards');
  assert.deepEqual(orders.tags, ['Orders']);
  assert.deepEqual(orders.responses['200'].content['application/json'].schema, {
    $ref: '#/components/schemas/Transaction',
  });
  assert.ok(orders.responses['403'].content['application/json'].examples.INSUFFICIENT_BALANCE);
  assert.ok(orders.responses['401'].description.includes('TOKEN_EXPIRED'));
  assert.deepEqual(doc.components.schemas.Product.properties.denominationType.enum, ['FIXED', 'RANGE']);
  assert.ok(doc.components.securitySchemes.bearer.flows.clientCredentials.scopes.developer);
  assert.match(doc.components.securitySchemes.bearer.description, /audience/);
  const topups = (await server.http.get('/topups/openapi.json')).body;
  const scopes = Object.keys(topups.components.securitySchemes.bearer.flows.clientCredentials.scopes);
  for (const methods of Object.values<any>(topups.paths))
    for (const op of Object.values<any>(methods)) {
      assert.ok(op.summary && op.description && op.tags?.length, op.operationId);
      for (const scope of op.security[0].bearer) assert.ok(scopes.includes(scope), scope);
    }
  assert.ok(topups.components.schemas.Operator && topups.components.schemas.Topup);
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

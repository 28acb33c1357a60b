import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Bad input anywhere gets a 4xx, never a 5xx: every operation the published documents list is
// called with malformed path parameters, query values and bodies, and no answer may be a 500.
// Bounded: a fixed handful of values per operation.
let server: TestServer;
const tokens: Record<string, string> = {};

before(async () => {
  server = await startTestServer();
  const account = await server.admin.createAccount({ fund: 50 });
  tokens.giftcards = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  tokens.topups = await server.admin.token(account, AUDIENCES.topupsSandbox);
});
after(() => server.close());

const BAD_SEGMENTS = ['abc', '-1', '0', '99999999999999999999999', '1.5', '%00', '%E0%A4%A', "'%20OR%201=1"];
const BAD_QUERY = ['', '-1', 'abc', '1e309', '%00', '9999999999999999999999'];
const BAD_BODIES = [
  '{"a":',
  '[]',
  '"text"',
  'null',
  '{"productId":"x","quantity":-1,"unitPrice":"NaN","operatorId":1e400,"amount":"abc"}',
  JSON.stringify({
    productId: 11,
    quantity: 1e6,
    unitPrice: 1e308,
    senderName: 'x'.repeat(5000),
    operatorId: 1001,
    amount: -5,
  }),
  JSON.stringify({ name: {}, currency: [], country: 7, environment: null, amount: {}, reason: 5 }),
  JSON.stringify({ name: 'a\u0000b', senderName: 'nul\u0000', customIdentifier: '\u0000', reason: '\u0000' }),
];

for (const [prefix, kind] of [
  ['/giftcards-sandbox', 'giftcards'],
  ['/topups-sandbox', 'topups'],
  ['/admin', 'admin'],
] as const) {
  test(`${prefix}: malformed input never answers 5xx`, async () => {
    const doc = (await server.http.get(`${prefix}/openapi.json`)).body;
    const headers: Record<string, string> =
      kind === 'admin'
        ? { authorization: `Bearer ${ADMIN_KEY}` }
        : { authorization: `Bearer ${tokens[kind]}` };
    const failures: string[] = [];
    const check = async (method: string, path: string, rawBody?: string) => {
      const answer = await server.http.call(method.toUpperCase(), path, {
        headers: rawBody === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        rawBody,
      });
      if (answer.status >= 500)
        failures.push(
          `${method.toUpperCase()} ${path} ${rawBody ?? ''} -> ${answer.status} ${answer.text.slice(0, 200)}`,
        );
    };
    for (const [template, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        const params: any[] = op.parameters ?? [];
        const hasPathParams = params.some((p) => p.in === 'path');
        const fill = (value: string) => `${prefix}${template.replace(/\{[^}]+\}/g, value)}`;
        const goodPath = fill('1');
        if (hasPathParams) for (const v of BAD_SEGMENTS) await check(method, fill(v));
        for (const q of params.filter((p) => p.in === 'query')) {
          for (const v of BAD_QUERY) await check(method, `${goodPath}?${q.name}=${v}`);
        }
        if (op.requestBody) for (const body of BAD_BODIES) await check(method, goodPath, body);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await server.admin.audit(), []);
  });
}

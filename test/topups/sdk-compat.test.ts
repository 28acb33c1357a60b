import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { assertEvery } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// decisions §9: what Reloadly's public Node SDK (node-sdk-airtime) sends where it differs from the
// spec, served as documented aliases (docs/decisions.md, "Top-ups: compatibility").
let server: TestServer;
let c: Caller;
before(async () => {
  server = await startTestServer();
});
// every case has an account of its own: no case sees another's top-ups
beforeEach(async () => {
  c = await server.caller('topups');
});
after(() => server.close());

test('POST /operators/{id}/fx-rate with {amount} answers as POST /operators/fx-rate', async () => {
  const alias = await c.post('/operators/1001/fx-rate', { amount: 10 });
  assert.equal(alias.status, 200, alias.text);
  const spec = await c.post('/operators/fx-rate', { operatorId: 1001, amount: 10 });
  assert.deepEqual(alias.body, spec.body);
  assert.equal((await c.post('/operators/1001/fx-rate', { amount: 'x' })).body.errorCode, 'INVALID_AMOUNT');
});

test("auto-detect accepts the '+' the SDK puts before a national number", async () => {
  const a = await c.get(`/operators/auto-detect/phone/${encodeURIComponent('+08031234567')}/countries/NG`);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.name, 'MTN Nigeria');
  const foreign = await c.get(
    `/operators/auto-detect/phone/${encodeURIComponent('+447400123456')}/countries/NG`,
  );
  assert.equal(foreign.body.errorCode, 'INVALID_PHONE_NUMBER');
});

test('includeRange=false / includeFixed=false leave RANGE / FIXED operators out', async () => {
  const noRange = await c.get('/operators/countries/NG?includeRange=false');
  assertEvery(noRange.body, (o: any) => o.denominationType === 'FIXED', 'NG operators without RANGE');
  const noFixed = await c.get('/operators?includeFixed=false&size=50');
  assertEvery(noFixed.body.content, (o: any) => o.denominationType === 'RANGE', 'operators without FIXED');
});

test('report dates without zero padding ("2026-1-5 7:5:3"), as the SDK formats them', async () => {
  const sent = await c.post('/topups', {
    operatorId: 1001,
    amount: 5,
    recipientPhone: { countryCode: 'NG', number: '08037770001' },
  });
  assert.equal(sent.status, 200);
  const d = new Date(Date.parse(`${sent.body.transactionDate.replace(' ', 'T')}Z`));
  const unpadded = (t: Date) =>
    `${t.getUTCFullYear()}-${t.getUTCMonth() + 1}-${t.getUTCDate()} ${t.getUTCHours()}:${t.getUTCMinutes()}:${t.getUTCSeconds()}`;
  const from = unpadded(new Date(d.getTime() - 60_000));
  const to = unpadded(new Date(d.getTime() + 60_000));
  const a = await c.get(
    `/topups/reports/transactions?startDate=${encodeURIComponent(from)}&endDate=${encodeURIComponent(to)}&page=1&size=10`,
  );
  assert.equal(a.status, 200, a.text);
  assert.deepEqual(
    a.body.content.map((t: any) => t.transactionId),
    [sent.body.transactionId],
  );
});

test('`id` beside operatorId / promotionId, as the SDK reads them; /promotions/countries/{code}', async () => {
  const op = await c.get('/operators/1001');
  assert.equal(op.body.id, 1001);
  const commission = await c.get('/operators/1001/commissions');
  assert.equal(commission.body.operator.id, 1001);
  const promotions = await c.get('/promotions?size=5');
  for (const p of promotions.body.content) assert.equal(p.id, p.promotionId);
  const alias = await c.get('/promotions/countries/NG');
  assert.equal(alias.status, 200);
  assert.deepEqual(alias.body, (await c.get('/promotions/country-codes/NG')).body);
  assert.equal((await c.get('/promotions/countries/ZZ')).body.errorCode, 'COUNTRY_NOT_SUPPORTED');
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { Caller } from '../harness/client.ts';
import { AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertTransaction, VENDOR_ACCEPT } from './helpers.ts';

// Each of the spec's 18 error codes and its 3 statuses, met through the HTTP API; the sandbox
// simulator's test numbers (README "Sandbox test numbers"); vendor media types.
let server: TestServer;
let c: Caller;
before(async () => {
  // the worker's loop looks for due top-ups every 100 ms when a test starts it
  server = await startTestServer({ env: { TOPUP_WORKER_INTERVAL_MS: '100' } });
});
// every case has an account of its own: no case sees another's balance, top-ups or identifiers
beforeEach(async () => {
  c = await server.caller('topups', 'sandbox', { fund: 1000 });
});
after(() => server.close());

const NG = (n: string) => ({ countryCode: 'NG', number: n });
let serial = 2000;
const ngNumber = () => `0803${String(serial++).padStart(7, '0')}`;
const send = (caller: Caller, extra: Record<string, unknown> = {}) =>
  caller.post('/topups', { operatorId: 1001, amount: 10, recipientPhone: NG(ngNumber()), ...extra });

function expectError(a: { status: number; body: any }, status: number, code: string) {
  assert.equal(a.body?.errorCode, code, JSON.stringify(a.body));
  assert.equal(a.status, status);
  for (const field of ['timeStamp', 'message', 'infoLink', 'path', 'errorCode', 'details']) {
    assert.ok(field in a.body, field);
  }
}

const balance = async (caller: Caller) => (await caller.get('/accounts/balance')).body.balance as number;

describe('sandbox outcomes by test number', () => {
  test('any other valid number: SUCCESSFUL at once', async () => {
    const a = await send(c);
    assert.equal(a.status, 200);
    assert.equal(a.body.status, 'SUCCESSFUL');
  });

  test('ending 99990: PROCESSING, then SUCCESSFUL when the worker finds it due', async () => {
    const a = await send(c, { recipientPhone: NG('08031299990') });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.status, 'PROCESSING');
    assertTransaction(a.body);
    assert.equal(a.body.operatorTransactionId, null);
    const worker = server.runtime.services.worker;
    await worker.runDue();
    const early = await c.get(`/topups/reports/transactions/${a.body.transactionId}`);
    assert.equal(early.body.status, 'PROCESSING', 'not due before TOPUP_SANDBOX_PROCESSING_SECONDS');
    server.clock.advance(31_000);
    assert.ok((await worker.runDue()) >= 1);
    const done = await c.get(`/topups/reports/transactions/${a.body.transactionId}`);
    assert.equal(done.body.status, 'SUCCESSFUL');
    assert.equal(typeof done.body.operatorTransactionId, 'string');
  });

  test('the in-process poller finishes a due top-up by itself', async () => {
    const a = await send(c, { recipientPhone: NG('08035599990') });
    assert.equal(a.body.status, 'PROCESSING');
    server.clock.advance(31_000);
    const worker = server.runtime.services.worker;
    worker.start((error) => assert.fail(String(error)));
    try {
      let status = 'PROCESSING';
      for (let i = 0; i < 100 && status === 'PROCESSING'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await c.get(`/topups/reports/transactions/${a.body.transactionId}`)).body.status;
      }
      assert.equal(status, 'SUCCESSFUL');
    } finally {
      await worker.stop();
    }
  });

  test('ending 99991: PROCESSING, then REFUNDED with a refund entry', async () => {
    const before = await balance(c);
    const a = await send(c, { recipientPhone: NG('08031299991'), amount: 20 });
    assert.equal(a.body.status, 'PROCESSING');
    assert.equal(await balance(c), new Decimal(before).minus(a.body.balanceInfo.cost).toNumber());
    server.clock.advance(31_000);
    await server.runtime.services.worker.runDue();
    const done = await c.get(`/topups/reports/transactions/${a.body.transactionId}`);
    assert.equal(done.body.status, 'REFUNDED');
    assert.equal(await balance(c), before);
    const ledger = await server.admin.call(
      'GET',
      `/accounts/${c.account.accountId}/ledger?environment=sandbox`,
    );
    const refund = ledger.body.items.find(
      (e: any) => e.kind === 'REFUND' && e.transactionId === a.body.transactionId,
    );
    assert.equal(refund.amount, a.body.balanceInfo.cost);
    // a second run finds nothing more to do: the transition happens once
    await server.runtime.services.worker.runDue();
    assert.equal(await balance(c), before);
  });

  test('ending 99992: 400 TOPUP_TRANSACTION_FAILED, refunded at once, REFUNDED in the reports', async () => {
    const before = await balance(c);
    const a = await send(c, { recipientPhone: NG('08031299992'), customIdentifier: 'refused-1' });
    expectError(a, 400, 'TOPUP_TRANSACTION_FAILED');
    assert.equal(await balance(c), before);
    const listed = await c.get('/topups/reports/transactions?customIdentifier=refused-1');
    assert.equal(listed.body.totalElements, 1);
    assert.equal(listed.body.content[0].status, 'REFUNDED');
    // the number was not recharged, so it may be tried again at once
    const retry = await send(c, { recipientPhone: NG('08031299992') });
    assert.equal(retry.body.errorCode, 'TOPUP_TRANSACTION_FAILED');
  });

  test('ending 99993: 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT, nothing debited', async () => {
    const before = await balance(c);
    const a = await send(c, { recipientPhone: NG('08031299993'), customIdentifier: 'busy-1' });
    expectError(a, 503, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
    assert.equal(await balance(c), before);
    assert.equal((await c.get('/topups/reports/transactions?customIdentifier=busy-1')).body.totalElements, 0);
    assert.deepEqual(await server.admin.audit(), []);
  });
});

describe('error codes', () => {
  test('INVALID_AMOUNT: the amount is not a number', async () => {
    for (const amount of ['abc', '10', null, true])
      expectError(await send(c, { amount }), 400, 'INVALID_AMOUNT');
  });

  test('INVALID_AMOUNT_FOR_OPERATOR', async () => {
    expectError(await send(c, { amount: 1000 }), 400, 'INVALID_AMOUNT_FOR_OPERATOR');
  });

  test('INVALID_RECIPIENT_PHONE: not valid in its country, another country, or a fixed line', async () => {
    expectError(await send(c, { recipientPhone: NG('0803123') }), 400, 'INVALID_RECIPIENT_PHONE');
    expectError(await send(c, { recipientPhone: NG('+447400123456') }), 400, 'INVALID_RECIPIENT_PHONE');
    expectError(
      await send(c, { recipientPhone: { countryCode: 'GB', number: '07400123456' } }),
      400,
      'INVALID_RECIPIENT_PHONE',
    );
    expectError(await send(c, { recipientPhone: NG('012345678') }), 400, 'INVALID_RECIPIENT_PHONE');
  });

  test('INVALID_SENDER_PHONE', async () => {
    const a = await send(c, { senderPhone: { countryCode: 'US', number: '123' } });
    expectError(a, 400, 'INVALID_SENDER_PHONE');
  });

  test('INVALID_PHONE_NUMBER (auto-detect)', async () => {
    expectError(
      await c.get('/operators/auto-detect/phone/0803123/countries/NG'),
      400,
      'INVALID_PHONE_NUMBER',
    );
    expectError(await c.get('/operators/auto-detect/phone/hello/countries/NG'), 400, 'INVALID_PHONE_NUMBER');
  });

  test('PHONE_RECENTLY_RECHARGED within 2 minutes, for this account and environment only', async () => {
    const number = ngNumber();
    assert.equal((await send(c, { recipientPhone: NG(number) })).status, 200);
    server.clock.advance(119_000);
    expectError(
      await send(c, { recipientPhone: NG(`+234${number.slice(1)}`) }),
      400,
      'PHONE_RECENTLY_RECHARGED',
    );
    const other = await server.caller('topups');
    assert.equal((await send(other, { recipientPhone: NG(number) })).status, 200);
    server.clock.advance(2_000);
    assert.equal((await send(c, { recipientPhone: NG(number) })).status, 200);
  });

  test('COUNTRY_NOT_SUPPORTED', async () => {
    expectError(
      await send(c, { recipientPhone: { countryCode: 'ZZ', number: '12345678' } }),
      404,
      'COUNTRY_NOT_SUPPORTED',
    );
    expectError(
      await c.get('/operators/auto-detect/phone/12345678/countries/ZZ'),
      404,
      'COUNTRY_NOT_SUPPORTED',
    );
  });

  test('OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE: an inactive operator (422), not listed', async () => {
    const inactive = server.runtime.services.topups.operators.all.find((o) => !o.status);
    assert.ok(inactive);
    const a = await c.post('/topups', {
      operatorId: inactive.operatorId,
      amount: 10,
      recipientPhone: { countryCode: inactive.countryCode, number: '1' },
    });
    expectError(a, 422, 'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE');
    assert.equal((await c.get(`/operators/${inactive.operatorId}`)).status, 404);
    const commission = await c.get(`/operators/${inactive.operatorId}/commissions`);
    assert.equal(commission.body.operator.status, false);
  });

  test('OPERATOR_NOT_IN_SERVICE: live top-ups without a provider, nothing debited', async () => {
    const live = await server.caller('topups', 'live', { fund: 100 });
    const a = await send(live);
    expectError(a, 422, 'OPERATOR_NOT_IN_SERVICE');
    assert.equal(await balance(live), 100);
    assert.equal((await live.get('/topups/reports/transactions')).body.totalElements, 0);
  });

  test('COULD_NOT_AUTO_DETECT_OPERATOR: a valid number in no known range', async () => {
    expectError(
      await c.get('/operators/auto-detect/phone/4156921234/countries/US'),
      404,
      'COULD_NOT_AUTO_DETECT_OPERATOR',
    );
  });

  test('INSUFFICIENT_BALANCE, nothing written', async () => {
    const poor = await server.caller('topups', 'sandbox', { fund: 5 });
    expectError(await send(poor, { amount: 10, customIdentifier: 'poor-1' }), 403, 'INSUFFICIENT_BALANCE');
    assert.equal(await balance(poor), 5);
    assert.equal((await poor.get('/topups/reports/transactions')).body.totalElements, 0);
    // the refused attempt did not use up its customIdentifier
    await server.admin.fund(poor.account.accountId, 100);
    assert.equal((await send(poor, { amount: 10, customIdentifier: 'poor-1' })).status, 200);
  });

  test('MAX_DAILY_TRANSACTION_COUNT_REACHED and MAX_DAILY_TRANSACTION_AMOUNT_REACHED', async () => {
    const counted = await server.caller('topups', 'sandbox', { dailyCountLimit: 2 });
    assert.equal((await send(counted)).status, 200);
    assert.equal((await send(counted)).status, 200);
    expectError(await send(counted), 403, 'MAX_DAILY_TRANSACTION_COUNT_REACHED');
    const capped = await server.caller('topups', 'sandbox', { dailyAmountLimit: '25' });
    assert.equal((await send(capped, { amount: 20 })).status, 200); // costs 18.80 after the 6% discount
    expectError(await send(capped, { amount: 10 }), 403, 'MAX_DAILY_TRANSACTION_AMOUNT_REACHED');
  });

  test('INACTIVE_ACCOUNT: a deactivated account cannot send', async () => {
    const gone = await server.caller('topups');
    await server.admin.call('POST', `/accounts/${gone.account.accountId}/deactivate`);
    expectError(await send(gone), 403, 'INACTIVE_ACCOUNT');
    assert.equal((await gone.get('/operators/1001')).status, 200, 'reading still works');
  });

  test('ACCOUNT_NOT_FOUND (admin API; a token always belongs to an existing account)', async () => {
    expectError(await server.admin.call('GET', '/accounts/987654'), 404, 'ACCOUNT_NOT_FOUND');
  });

  test('CUSTOM_IDENTIFIER_ALREADY_USED', async () => {
    assert.equal((await send(c, { customIdentifier: 'dup' })).status, 200);
    expectError(await send(c, { customIdentifier: 'dup' }), 400, 'CUSTOM_IDENTIFIER_ALREADY_USED');
  });

  test('requests with any vendor word in Accept are served; another version is 406', async () => {
    for (const vendor of ['reloadly', 'example', 'acme']) {
      const a = await server.http.get('/topups-sandbox/operators/1001', {
        token: c.token,
        headers: { accept: `application/com.${vendor}.topups-v1+json` },
      });
      assert.equal(a.status, 200, vendor);
    }
    const post = await server.http.post(
      '/topups-sandbox/topups',
      { operatorId: 1001, amount: 5, recipientPhone: NG(ngNumber()) },
      { token: c.token, headers: { accept: VENDOR_ACCEPT, 'content-type': VENDOR_ACCEPT } },
    );
    assert.equal(post.status, 200);
    const v2 = await server.http.get('/topups-sandbox/operators/1001', {
      token: c.token,
      headers: { accept: 'application/com.reloadly.topups-v2+json' },
    });
    expectError(v2, 406, 'MEDIA_TYPE_NOT_ACCEPTABLE');
  });

  test('HTTP 405 and 415 on the top-up base', async () => {
    const patch = await server.http.call('PATCH', '/topups-sandbox/topups', { token: c.token, body: {} });
    expectError(patch, 405, 'METHOD_NOT_SUPPORTED');
    assert.match(String(patch.headers.allow), /POST/);
    const text = await server.http.call('POST', '/topups-sandbox/topups', {
      token: c.token,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'operatorId=1001',
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('HTTP 500: an unexpected failure (a missing table) leaks nothing', async () => {
    const db = server.db.kysely;
    await sql`ALTER TABLE topup_transactions RENAME TO topup_transactions_away`.execute(db);
    try {
      const a = await c.get('/topups/reports/transactions');
      expectError(a, 500, 'INTERNAL_SERVER_ERROR');
      assert.ok(!/topup_transactions|relation|SQL/i.test(a.body.message));
    } finally {
      await sql`ALTER TABLE topup_transactions_away RENAME TO topup_transactions`.execute(db);
    }
    assert.equal((await c.get('/topups/reports/transactions')).status, 200);
  });

  test('TOKEN_EXPIRED (last: moves the clock a day on)', async () => {
    const token = await server.admin.token(c.account, AUDIENCES.topupsSandbox);
    server.clock.advance(86_401_000);
    const a = await server.http.get('/topups-sandbox/operators/1001', { token });
    expectError(a, 401, 'TOKEN_EXPIRED');
    assert.deepEqual(await server.admin.audit(), []);
  });
});

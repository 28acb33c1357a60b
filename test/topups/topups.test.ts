import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertFields, assertPaged, assertTransaction } from './helpers.ts';

// POST /topups and the reports (endpoints 1, 16, 17): fields, money, filters, ownership.
// Expected money is computed here independently with decimal.js from the data files.
const D = Decimal.clone({ rounding: Decimal.ROUND_HALF_UP });
const seedRates = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'data', 'seed', 'fx-rates.json'), 'utf8'),
).rates as Record<string, string>;
const unitsPerUsd = (c: string) => new D(c === 'USD' ? 1 : seedRates[c]);
const round2 = (d: Decimal) => d.toDecimalPlaces(2, D.ROUND_HALF_UP).toNumber();

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const NG = (n: string) => ({ countryCode: 'NG', number: n });
let serial = 1000;
/** A fresh valid MTN Nigeria number each call, so PHONE_RECENTLY_RECHARGED never interferes. */
const ngNumber = () => `0803${String(serial++).padStart(7, '0')}`;

async function balanceOf(c: Caller) {
  return (await c.get('/accounts/balance')).body.balance as number;
}

describe('POST /topups', () => {
  let c: Caller;
  // every case has an account of its own: no case sees another's balance, top-ups or identifiers
  beforeEach(async () => {
    c = await server.caller('topups', 'sandbox', { fund: 1000 });
  });

  test('a top-up answers the transaction with every spec field, balanceInfo and links', async () => {
    const a = await c.post('/topups', {
      operatorId: 1001,
      amount: 10,
      customIdentifier: 'first-topup',
      recipientPhone: NG('+234 803 000 0001'),
      senderPhone: { countryCode: 'US', number: '+1 415 692 1234' },
    });
    assert.equal(a.status, 200, a.text);
    assertTransaction(a.body);
    assert.equal(a.body.status, 'SUCCESSFUL');
    assert.equal(a.body.customIdentifier, 'first-topup');
    assert.equal(a.body.recipientPhone, '2348030000001');
    assert.equal(a.body.senderPhone, '14156921234');
    assert.equal(a.body.countryCode, 'NG');
    assert.equal(a.body.operatorName, 'MTN Nigeria');
    assert.equal(a.body.pinDetail, null);
    assert.ok(!('recipientEmail' in a.body));
    assert.equal(typeof a.body.operatorTransactionId, 'string');
    const self = a.body.links.find((l: any) => l.rel === 'self');
    assert.equal(self.method, 'GET');
    const path = new URL(self.href).pathname;
    const again = await server.http.get(path, { token: c.token });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, a.body);
  });

  test('international RANGE send: discount = amount x internationalDiscount, cost debited', async () => {
    const before = await balanceOf(c);
    const op = (await c.get('/operators/1001')).body;
    const a = await c.post('/topups', { operatorId: 1001, amount: 12.34, recipientPhone: NG(ngNumber()) });
    assert.equal(a.status, 200, a.text);
    const discount = new D('12.34').times(op.internationalDiscount).div(100);
    assert.equal(a.body.requestedAmount, 12.34);
    assert.equal(a.body.requestedAmountCurrencyCode, 'USD');
    assert.equal(a.body.discount, round2(discount));
    assert.equal(a.body.discountCurrencyCode, 'USD');
    assert.equal(a.body.deliveredAmount, round2(new D('12.34').times(unitsPerUsd('NGN'))));
    assert.equal(a.body.deliveredAmountCurrencyCode, 'NGN');
    const cost = new D('12.34').minus(round2(discount));
    assert.equal(a.body.balanceInfo.cost, cost.toNumber());
    assert.equal(a.body.balanceInfo.oldBalance, before);
    assert.equal(a.body.balanceInfo.newBalance, new D(before).minus(cost).toNumber());
    assert.equal(await balanceOf(c), a.body.balanceInfo.newBalance);
  });

  test('local send (account country = operator country) earns the local discount', async () => {
    const us = await server.caller('topups', 'sandbox', { fund: 100, country: 'US' });
    const op = (await us.get('/operators/1436')).body; // Verizon United States, RANGE
    assert.notEqual(op.localDiscount, op.internationalDiscount);
    const a = await us.post('/topups', {
      operatorId: 1436,
      amount: 20,
      recipientPhone: { countryCode: 'US', number: '4156921234' },
    });
    assert.equal(a.status, 200, a.text);
    const discount = round2(new D(20).times(op.localDiscount).div(100));
    assert.equal(a.body.discount, discount);
    assert.equal(a.body.balanceInfo.cost, new D(20).minus(discount).toNumber());
    assert.equal(a.body.deliveredAmount, 20);
    assert.equal(await balanceOf(us), new D(100).minus(20).plus(discount).toNumber());
  });

  test('FIXED: a listed amount is taken, any other is INVALID_AMOUNT_FOR_OPERATOR', async () => {
    const op = (await c.get('/operators/1005')).body; // Airtel Nigeria, FIXED
    assert.equal(op.denominationType, 'FIXED');
    const amount = op.fixedAmounts[1];
    const a = await c.post('/topups', { operatorId: 1005, amount, recipientPhone: NG(ngNumber()) });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.requestedAmount, amount);
    assert.equal(a.body.discount, round2(new D(amount).times(op.internationalDiscount).div(100)));
    const bad = await c.post('/topups', {
      operatorId: 1005,
      amount: amount + 0.01,
      recipientPhone: NG(ngNumber()),
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_AMOUNT_FOR_OPERATOR');
  });

  test('a wrong amount for a FIXED PIN operator: the message names the amounts it takes', async () => {
    const op = (await c.get('/operators/1004')).body; // MTN Nigeria PIN, FIXED
    assert.equal(op.pin, true);
    const bad = await c.post('/topups', { operatorId: 1004, amount: 0.37, recipientPhone: NG(ngNumber()) });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_AMOUNT_FOR_OPERATOR');
    const amounts = op.fixedAmounts.map((a: number) => new D(a).toFixed());
    assert.ok(amounts.length > 0 && amounts.length <= 20);
    assert.equal(
      bad.body.message,
      `0.37 USD is not one of the operator's fixed amounts: ${amounts.join(', ')} USD`,
    );
  });

  test('RANGE: below min, above max and too many decimals are INVALID_AMOUNT_FOR_OPERATOR', async () => {
    for (const amount of [2.99, 200.01, 10.001]) {
      const a = await c.post('/topups', { operatorId: 1001, amount, recipientPhone: NG(ngNumber()) });
      assert.equal(a.status, 400, String(amount));
      assert.equal(a.body.errorCode, 'INVALID_AMOUNT_FOR_OPERATOR');
    }
    const min = await c.post('/topups', { operatorId: 1001, amount: 3, recipientPhone: NG(ngNumber()) });
    assert.equal(min.status, 200);
  });

  test('useLocalAmount: the local amount is delivered; requestedAmount is what it costs', async () => {
    const a = await c.post('/topups', {
      operatorId: 1001,
      amount: 10000,
      useLocalAmount: true,
      recipientPhone: NG(ngNumber()),
    });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.deliveredAmount, 10000);
    assert.equal(a.body.deliveredAmountCurrencyCode, 'NGN');
    const requested = round2(new D(10000).div(unitsPerUsd('NGN')));
    assert.equal(a.body.requestedAmount, requested);
    assert.equal(a.body.discount, round2(new D(requested).times(6).div(100)));
    const tooSmall = await c.post('/topups', {
      operatorId: 1001,
      amount: 4999,
      useLocalAmount: true,
      recipientPhone: NG(ngNumber()),
    });
    assert.equal(tooSmall.body.errorCode, 'INVALID_AMOUNT_FOR_OPERATOR');
    const notLocal = await c.post('/topups', {
      operatorId: 1002, // MTN Nigeria Data: no local amounts (main airtime products all have them)
      amount: 1000,
      useLocalAmount: true,
      recipientPhone: NG(ngNumber()),
    });
    assert.equal(notLocal.body.errorCode, 'INVALID_AMOUNT_FOR_OPERATOR');
  });

  test('FIXED local amounts from a EUR account: converted both ways, local discount not applied', async () => {
    const eur = await server.caller('topups', 'sandbox', { currency: 'EUR', country: 'DE', fund: 500 });
    const op = (await eur.get('/operators/1004')).body; // MTN Nigeria PIN, FIXED with local amounts
    const local = op.localFixedAmounts[0];
    const a = await eur.post('/topups', {
      operatorId: 1004,
      amount: local,
      useLocalAmount: true,
      recipientPhone: NG(ngNumber()),
    });
    assert.equal(a.status, 200, a.text);
    const requested = round2(new D(local).div(unitsPerUsd('NGN')).times(unitsPerUsd('EUR')));
    assert.equal(a.body.requestedAmount, requested);
    assert.equal(a.body.requestedAmountCurrencyCode, 'EUR');
    assert.equal(a.body.deliveredAmount, local);
    assert.equal(a.body.discount, round2(new D(requested).times(op.internationalDiscount).div(100)));
    assert.equal(a.body.balanceInfo.currencyCode, 'EUR');
    assert.equal(a.body.balanceInfo.currencyName, 'Euro');
    // a PIN operator answers all eight PIN fields
    assertFields(a.body.pinDetail, {
      serial: 'string|null',
      info1: 'string|null',
      info2: 'string|null',
      info3: 'string|null',
      value: 'string|null',
      code: 'string|null',
      ivr: 'string|null',
      validity: 'string|null',
    });
    const byId = await eur.get(`/topups/reports/transactions/${a.body.transactionId}`);
    assert.deepEqual(byId.body.pinDetail, a.body.pinDetail);
  });

  test('Nauta (Cuba) is addressed by e-mail at nauta.com.cu or nauta.co.cu only', async () => {
    const nauta = (await c.get('/operators/countries/CU')).body.find((o: any) => o.name === 'Nauta Cuba');
    const amount = nauta.fixedAmounts[0];
    const ok = await c.post('/topups', {
      operatorId: nauta.operatorId,
      amount,
      recipientEmail: 'Ana.Perez@nauta.com.cu',
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.recipientEmail, 'ana.perez@nauta.com.cu');
    assert.equal(ok.body.recipientPhone, null);
    const co = await c.post('/topups', {
      operatorId: nauta.operatorId,
      amount,
      recipientEmail: 'luis@nauta.co.cu',
    });
    assert.equal(co.status, 200);
    for (const email of ['ana@gmail.com', 'not-an-email', undefined]) {
      const bad = await c.post('/topups', { operatorId: nauta.operatorId, amount, recipientEmail: email });
      assert.equal(bad.status, 400, String(email));
      assert.equal(bad.body.details[0].field, 'recipientEmail');
    }
  });

  test('a missing recipientPhone or a malformed body is INVALID_REQUEST', async () => {
    const missing = await c.post('/topups', { operatorId: 1001, amount: 5 });
    assert.equal(missing.body.errorCode, 'INVALID_REQUEST');
    const noOperator = await c.post('/topups', { amount: 5, recipientPhone: NG(ngNumber()) });
    assert.equal(noOperator.body.errorCode, 'INVALID_REQUEST');
    const unknown = await c.post('/topups', { operatorId: 99999, amount: 5, recipientPhone: NG(ngNumber()) });
    assert.equal(unknown.status, 404);
  });

  test('a retried top-up (same customIdentifier, same number) is told its reference is used, not the number', async () => {
    const body = { operatorId: 1001, amount: 5, customIdentifier: 'retry-1', recipientPhone: NG(ngNumber()) };
    assert.equal((await c.post('/topups', body)).status, 200);
    const again = await c.post('/topups', body);
    assert.equal(again.status, 400);
    assert.equal(again.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
  });

  test('customIdentifier is single-use per account; another account may use it', async () => {
    const body = () => ({
      operatorId: 1001,
      amount: 5,
      customIdentifier: 'order-42',
      recipientPhone: NG(ngNumber()),
    });
    assert.equal((await c.post('/topups', body())).status, 200);
    const again = await c.post('/topups', body());
    assert.equal(again.status, 400);
    assert.equal(again.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
    const other = await server.caller('topups');
    assert.equal((await other.post('/topups', body())).status, 200);
  });

  test('concurrent requests with one customIdentifier give exactly one transaction', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        c.post('/topups', {
          operatorId: 1001,
          amount: 5,
          customIdentifier: 'race-1',
          recipientPhone: NG(ngNumber()),
        }),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    assert.ok(
      answers
        .filter((a) => a.status !== 200)
        .every((a) => a.body.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED'),
    );
    const listed = await c.get('/topups/reports/transactions?customIdentifier=race-1');
    assert.equal(listed.body.totalElements, 1);
    assert.deepEqual(await server.admin.audit(), []);
  });
});

describe('reports', () => {
  let r: Caller;
  const ids: number[] = [];
  before(async () => {
    r = await server.caller('topups', 'sandbox', { fund: 500 });
    const sends = [
      { operatorId: 1001, amount: 5, customIdentifier: 'r-1', recipientPhone: NG(ngNumber()) },
      { operatorId: 1001, amount: 50, customIdentifier: 'r-2', recipientPhone: NG(ngNumber()) },
      {
        operatorId: 1436,
        amount: 20,
        customIdentifier: 'r-3',
        recipientPhone: { countryCode: 'US', number: '4156920001' },
      },
    ];
    for (const body of sends) {
      const a = await r.post('/topups', body);
      assert.equal(a.status, 200, a.text);
      ids.push(a.body.transactionId);
      server.clock.advance(60 * 60 * 1000); // one hour between them
    }
  });

  test('the list is the paged wrapper (default size 100), newest first', async () => {
    const a = await r.get('/topups/reports/transactions');
    assert.equal(a.status, 200);
    assertPaged(a.body);
    assert.equal(a.body.size, 100);
    assert.equal(a.body.totalElements, 3);
    a.body.content.forEach(assertTransaction);
    assert.deepEqual(
      a.body.content.map((t: any) => t.transactionId),
      [...ids].reverse(),
    );
    const page2 = await r.get('/topups/reports/transactions?size=2&page=2');
    assert.equal(page2.body.number, 1);
    assert.deepEqual(
      page2.body.content.map((t: any) => t.transactionId),
      [ids[0]],
    );
  });

  test('filters: countryCode, customIdentifier, operatorId, operatorName', async () => {
    const q = async (query: string) =>
      (await r.get(`/topups/reports/transactions?${query}`)).body.content
        .map((t: any) => t.transactionId)
        .sort();
    assert.deepEqual(await q('countryCode=NG'), [ids[0], ids[1]].sort());
    assert.deepEqual(await q('countryCode=us'), [ids[2]]);
    assert.deepEqual(await q('customIdentifier=r-2'), [ids[1]]);
    assert.deepEqual(await q('operatorId=1436'), [ids[2]]);
    assert.deepEqual(await q('operatorName=mtn'), [ids[0], ids[1]].sort());
    assert.deepEqual(await q('operatorName=Verizon%20United%20States'), [ids[2]]);
  });

  test('dates: startDate/endDate and startTime/endTime both bound the range', async () => {
    const all = (await r.get('/topups/reports/transactions?sortBy=transactionId&sortOrder=asc')).body.content;
    const t1 = all[1].transactionDate;
    const enc = encodeURIComponent;
    const fromSecond = await r.get(`/topups/reports/transactions?startDate=${enc(t1)}`);
    assert.equal(fromSecond.body.totalElements, 2);
    const untilSecond = await r.get(`/topups/reports/transactions?endTime=${enc(t1)}`);
    assert.equal(untilSecond.body.totalElements, 2);
    const onlySecond = await r.get(`/topups/reports/transactions?startTime=${enc(t1)}&endDate=${enc(t1)}`);
    assert.deepEqual(
      onlySecond.body.content.map((t: any) => t.transactionId),
      [ids[1]],
    );
    const day = t1.slice(0, 10);
    const wholeDay = await r.get(`/topups/reports/transactions?startDate=${day}&endDate=${day}`);
    assert.ok(wholeDay.body.totalElements >= 1);
    const bad = await r.get('/topups/reports/transactions?startDate=yesterday');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_REQUEST');
  });

  test('sortBy transactionDate|transactionId|requestedAmount, sortOrder asc|desc; others 400', async () => {
    const order = async (q: string) =>
      (await r.get(`/topups/reports/transactions?${q}`)).body.content.map((t: any) => t.requestedAmount);
    assert.deepEqual(await order('sortBy=requestedAmount&sortOrder=asc'), [5, 20, 50]);
    assert.deepEqual(await order('sortBy=requestedAmount&sortOrder=desc'), [50, 20, 5]);
    assert.deepEqual(await order('sortBy=transactionId&sortOrder=asc'), [5, 50, 20]);
    assert.deepEqual(await order('sortBy=transactionDate'), [20, 50, 5]);
    assert.equal((await r.get('/topups/reports/transactions?sortBy=amount')).status, 400);
    assert.equal((await r.get('/topups/reports/transactions?sortOrder=up')).status, 400);
    assert.equal((await r.get('/topups/reports/transactions?operatorId=abc')).status, 400);
  });

  test("another account's transaction is 404, and its list is its own", async () => {
    const other = await server.caller('topups');
    const a = await other.get(`/topups/reports/transactions/${ids[0]}`);
    assert.equal(a.status, 404);
    assert.equal(a.body.errorCode, 'RESOURCE_NOT_FOUND');
    assert.equal((await other.get('/topups/reports/transactions')).body.totalElements, 0);
    assert.equal((await r.get('/topups/reports/transactions/99999999')).status, 404);
  });

  test('reports need read-topups-history, sending needs send-topups', async () => {
    const reader = await server.caller('topups', 'sandbox', { scopes: ['read-operators'] });
    assert.equal((await reader.get('/topups/reports/transactions')).status, 403);
    assert.equal((await reader.post('/topups', { operatorId: 1001, amount: 5 })).status, 403);
  });
});

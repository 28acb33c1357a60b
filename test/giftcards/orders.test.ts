import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertTransaction, D, round, seed, seedRate } from './helpers.ts';

// The order flow (issue 3 "Must show"): order -> transaction -> cards -> reports, with amount, fee,
// discount, totalFee and balanceInfo checked against decisions §5, computed here independently.
const SMS_FEE_USD = '0.10';

function expectedPrice(o: {
  productId: number;
  unitPrice: string;
  quantity: number;
  currency: string;
  sms: boolean;
}) {
  const p = seed.products.find((x) => x.productId === o.productId);
  const c = o.currency;
  const S = round(new D(o.unitPrice).times(seedRate(p.recipientCurrencyCode, c)), c);
  const senderFee = round(new D(p.senderFee).times(seedRate('USD', c)), c);
  const q = new D(o.quantity);
  const fee = round(q.times(senderFee.plus(S.times(p.senderFeePercentage).div(100))), c);
  const discount = round(q.times(S).times(p.discountPercentage).div(100), c);
  const smsFee = o.sms ? round(q.times(round(new D(SMS_FEE_USD).times(seedRate('USD', c)), c)), c) : new D(0);
  const totalFee = fee.plus(smsFee);
  const amount = q.times(S).plus(totalFee).minus(discount);
  return { fee, discount, smsFee, totalFee, amount };
}

const CASES = [
  { currency: 'USD', country: 'US', fund: '5000' },
  { currency: 'JPY', country: 'JP', fund: '900000' },
  { currency: 'KWD', country: 'KW', fund: '2000' },
];

const ORDERS = [
  // FIXED: Amazon US, a listed denomination, with an SMS to the recipient
  { productId: 1840, unitPrice: '25.00', quantity: 2, sms: true },
  // RANGE: Amazon Belgium (EUR), any amount from min to max with two decimals
  { productId: 1056, unitPrice: '33.33', quantity: 1, sms: false },
  // RANGE in USD with a sender fee: Steam US
  { productId: 4840, unitPrice: '17.5', quantity: 3, sms: false },
];

describe('gift card orders', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  for (const account of CASES) {
    test(`order -> transaction -> cards -> reports in ${account.currency}`, async () => {
      const client = await server.caller('giftcards', 'sandbox', account);
      let balance = new D(account.fund);
      const ids: number[] = [];
      for (const o of ORDERS) {
        const body = {
          productId: o.productId,
          quantity: o.quantity,
          unitPrice: Number(o.unitPrice),
          senderName: 'Ada',
          customIdentifier: `flow-${account.currency}-${o.productId}`,
          recipientEmail: 'ada@example.com',
          ...(o.sms ? { recipientPhoneDetails: { countryCode: 'NG', phoneNumber: '+2348031234567' } } : {}),
        };
        const answer = await client.post('/orders', body);
        assert.equal(answer.status, 200, answer.text);
        const t = answer.body;
        assertTransaction(t);
        const want = expectedPrice({ ...o, currency: account.currency });
        assert.equal(t.status, 'SUCCESSFUL');
        assert.equal(t.currencyCode, account.currency);
        assert.equal(t.fee, want.fee.toNumber(), 'fee');
        assert.equal(t.discount, want.discount.toNumber(), 'discount');
        assert.equal(t.smsFee, want.smsFee.toNumber(), 'smsFee');
        assert.equal(t.totalFee, want.totalFee.toNumber(), 'totalFee');
        assert.equal(t.amount, want.amount.toNumber(), 'amount');
        assert.equal(t.balanceInfo.cost, t.amount);
        assert.equal(t.balanceInfo.oldBalance, balance.toNumber());
        balance = balance.minus(want.amount);
        assert.equal(t.balanceInfo.newBalance, balance.toNumber());
        assert.equal(t.balanceInfo.currencyCode, account.currency);
        assert.equal(t.product.productId, o.productId);
        assert.equal(t.product.quantity, o.quantity);
        assert.equal(t.product.unitPrice, Number(o.unitPrice));
        assert.equal(t.product.totalPrice, new D(o.unitPrice).times(o.quantity).toNumber());
        assert.equal(t.customIdentifier, body.customIdentifier);
        assert.equal(t.recipientEmail, 'ada@example.com');
        assert.equal(t.receipientPhone, o.sms ? 2348031234567 : null);
        assert.equal(t.preOrdered, false);
        for (const places of [t.amount, t.fee, t.discount]) {
          const decimals = String(places).split('.')[1]?.length ?? 0;
          assert.ok(
            decimals <= { USD: 2, JPY: 0, KWD: 3 }[account.currency]!,
            `${places} in ${account.currency}`,
          );
        }

        const cards = await client.get(`/orders/transactions/${t.transactionId}/cards`);
        assert.equal(cards.status, 200);
        assert.equal(cards.body.length, o.quantity);
        for (const card of cards.body) {
          assert.deepEqual(Object.keys(card).sort(), ['cardNumber', 'pinCode']);
          assert.ok(['number', 'string'].includes(typeof card.cardNumber));
        }
        const byId = await client.get(`/reports/transactions/${t.transactionId}`);
        assert.equal(byId.status, 200);
        assert.deepEqual(byId.body, t);
        ids.push(t.transactionId);
      }
      const report = await client.get('/reports/transactions');
      assert.equal(report.status, 200);
      assert.deepEqual(
        report.body.map((t: any) => t.transactionId),
        [...ids].reverse(),
        'newest first',
      );
      for (const t of report.body) assertTransaction(t);
      const shown = await client.get('/accounts/balance');
      assert.equal(shown.body.balance, balance.toNumber());
      assert.deepEqual(await server.admin.audit(), []);
    });
  }

  test('reports: customIdentifier, date range and paging filters', async () => {
    const client = await server.caller('giftcards');
    const order = (customIdentifier: string) =>
      client.post('/orders', {
        productId: 11,
        quantity: 1,
        unitPrice: 10,
        senderName: 'R',
        customIdentifier,
      });
    const first = (await order('report-a')).body;
    server.clock.advance(3_600_000);
    const second = (await order('report-b')).body;
    const third = (await order('report-c')).body;

    const byRef = await client.get('/reports/transactions?customIdentifier=report-b');
    assert.deepEqual(
      byRef.body.map((t: any) => t.transactionId),
      [second.transactionId],
    );
    const start = encodeURIComponent(second.transactionCreatedTime);
    const since = await client.get(`/reports/transactions?startDate=${start}`);
    assert.deepEqual(
      since.body.map((t: any) => t.transactionId),
      [third.transactionId, second.transactionId],
    );
    const until = await client.get(
      `/reports/transactions?endDate=${encodeURIComponent(first.transactionCreatedTime)}`,
    );
    assert.deepEqual(
      until.body.map((t: any) => t.transactionId),
      [first.transactionId],
    );
    const paged = await client.get('/reports/transactions?size=1&page=2');
    assert.deepEqual(
      paged.body.map((t: any) => t.transactionId),
      [second.transactionId],
    );
    const unpadded = await client.get('/reports/transactions?startDate=2020-1-5%203:04:5');
    assert.equal(unpadded.body.length, 3);
    for (const bad of [
      'startDate=22-11-2026',
      'endDate=2026-11-22T10:00:00Z',
      'startDate=2026-02-30%2000:00:00',
    ]) {
      const answer = await client.get(`/reports/transactions?${bad}`);
      assert.equal(answer.status, 400, bad);
      assert.equal(answer.body.errorCode, 'INVALID_REQUEST');
    }
    const reversed = await client.get('/reports/transactions?startDate=2026-01-02&endDate=2026-01-01');
    assert.equal(reversed.status, 400);
  });
});

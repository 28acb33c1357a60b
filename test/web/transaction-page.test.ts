import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dec } from '../../src/lib/money.ts';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, type WebSession } from '../harness/web-session.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

/**
 * A transaction's own page on the dashboard (issue 28), its JSON: for a gift card order with an SMS
 * (smsFee) bought from a EUR account (FX), and for a top-up refunded later, the page's figures are the
 * order's (its report), add up exactly, and its ledger entries are the ledger's (the dashboard's
 * ledger page) with the balance they left; the API request that created it is named by the id the
 * client sent. Another account's customer finds nothing (404), and no code is ever part of it.
 */
let server: TestServer;
let account: TestAccount;
let customer: WebSession;
let stranger: WebSession;

before(async () => {
  server = await startTestServer({ env: { TOPUP_RECENT_RECHARGE_SECONDS: '0' } });
  account = await server.admin.createAccount({ fund: 500, currency: 'EUR', country: 'DE' });
  const other = await server.admin.createAccount({ fund: 10 });
  customer = await dashboardSession(server, account.accountId, 'receipts@example.com');
  stranger = await dashboardSession(server, other.accountId, 'other@example.com');
});
after(() => server?.close());

const flushLog = () => server.runtime.services.requestLog.flush();
const sum = (xs: number[]) => xs.reduce((a, x) => a.plus(x), dec(0)).toNumber();

async function ledgerOf(product: string, id: number) {
  const page = await customer.get('/api/ledger?environment=sandbox&size=200');
  assert.equal(page.status, 200, page.text);
  return page.body.items
    .filter(
      (e: { product: string; transactionId: number }) => e.product === product && e.transactionId === id,
    )
    .reverse();
}

describe("a transaction's page", () => {
  test('a gift card order: fees, smsFee, discount, FX, recipient, request id and ledger, as the order made them', async () => {
    const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
    const headers = { accept: 'application/com.reloadly.giftcards-v1+json' };
    const placed = await server.http.post(
      '/giftcards-sandbox/orders',
      {
        productId: 11,
        quantity: 2,
        unitPrice: 10,
        senderName: 'Receipt test',
        customIdentifier: 'receipt-gc-1',
        recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
      },
      { token, headers: { ...headers, 'x-request-id': 'req-receipt-gc-1' } },
    );
    assert.equal(placed.status, 200, placed.text);
    const id = placed.body.transactionId as number;
    await flushLog();
    const report = (
      await server.http.get(`/giftcards-sandbox/reports/transactions/${id}`, { token, headers })
    ).body;

    const page = await customer.get(`/api/transactions/giftcards/${id}?environment=sandbox`);
    assert.equal(page.status, 200, page.text);
    const d = page.body;
    assert.equal(d.transactionId, id);
    assert.equal(d.status, report.status);
    assert.equal(d.customIdentifier, 'receipt-gc-1');
    assert.equal(d.requestId, 'req-receipt-gc-1', 'the request that created it');
    assert.equal(d.currencyCode, 'EUR');
    assert.deepEqual(
      [d.cost, d.fee, d.smsFee, d.totalFee, d.discount],
      [report.amount, report.fee, report.smsFee, report.totalFee, report.discount],
    );
    assert.ok(d.smsFee > 0, 'an SMS was paid for');
    assert.equal(dec(d.subtotal).plus(d.totalFee).minus(d.discount).toNumber(), d.cost);
    assert.equal(d.fx.senderCurrencyCode, 'EUR');
    assert.equal(d.fx.recipientCurrencyCode, report.product.currencyCode);
    assert.equal(d.fx.recipientAmount, report.product.totalPrice);
    assert.equal(d.fx.senderAmount, d.subtotal);
    assert.ok(
      Math.abs(d.fx.rate - d.fx.recipientAmount / d.fx.senderAmount) < 1e-4,
      `rate ${d.fx.rate} is recipient per sender`,
    );
    assert.equal(d.recipient.phone, '+12025550123');
    assert.equal(d.giftcard.quantity, 2);
    assert.equal(d.giftcard.productId, 11);
    assert.equal(d.topup, null);
    assert.deepEqual(
      [d.balance.before, d.balance.after],
      [report.balanceInfo.oldBalance, report.balanceInfo.newBalance],
    );

    const ledger = await ledgerOf('giftcards', id);
    assert.deepEqual(
      d.ledger.map((e: { entryId: number; kind: string; amount: number; balanceAfter: number }) => [
        e.entryId,
        e.kind,
        e.amount,
        e.balanceAfter,
      ]),
      ledger.map((e: { entryId: number; kind: string; amount: number; balanceAfter: number }) => [
        e.entryId,
        e.kind,
        e.amount,
        e.balanceAfter,
      ]),
    );
    assert.equal(d.ledger[0].kind, 'ORDER_DEBIT');
    assert.equal(-d.ledger[0].amount, d.cost, 'the debit is the cost');
    assert.equal(d.ledger[0].balanceAfter, d.balance.after);
    const text = JSON.stringify(d);
    const cards = await customer.post(`/api/giftcards/transactions/${id}/codes?environment=sandbox`);
    for (const card of cards.body.cards ?? []) assert.equal(text.includes(card.cardNumber), false, 'no code');
  });

  test('a top-up refunded later: both ledger entries, the delivered amount and its FX', async () => {
    const token = await server.admin.token(account, AUDIENCES.topupsSandbox);
    const placed = await server.http.post(
      '/topups-sandbox/topups',
      {
        operatorId: 1001,
        amount: 10,
        customIdentifier: 'receipt-tu-1',
        recipientPhone: { countryCode: 'NG', number: '08031299991' },
      },
      { token, headers: { accept: VENDOR_ACCEPT, 'x-request-id': 'req-receipt-tu-1' } },
    );
    assert.equal(placed.status, 200, placed.text);
    assert.equal(placed.body.status, 'PROCESSING');
    const id = placed.body.transactionId as number;
    server.clock.advance(60_000);
    await server.runtime.services.worker.runDue();
    await flushLog();
    const report = (
      await server.http.get(`/topups-sandbox/topups/reports/transactions/${id}`, {
        token,
        headers: { accept: VENDOR_ACCEPT },
      })
    ).body;
    assert.equal(report.status, 'REFUNDED', JSON.stringify(report));

    const page = await customer.get(`/api/transactions/topups/${id}?environment=sandbox`);
    assert.equal(page.status, 200, page.text);
    const d = page.body;
    assert.equal(d.status, 'REFUNDED');
    assert.equal(d.requestId, 'req-receipt-tu-1');
    assert.equal(d.customIdentifier, 'receipt-tu-1');
    assert.equal(d.cost, report.balanceInfo.cost);
    assert.equal(d.discount, report.discount);
    assert.equal(dec(d.subtotal).minus(d.discount).toNumber(), d.cost);
    assert.deepEqual(
      [d.fx.senderAmount, d.fx.senderCurrencyCode, d.fx.recipientAmount, d.fx.recipientCurrencyCode],
      [report.requestedAmount, 'EUR', report.deliveredAmount, report.deliveredAmountCurrencyCode],
    );
    assert.equal(d.topup.operatorId, 1001);
    assert.equal(d.giftcard, null);
    assert.deepEqual(
      d.ledger.map((e: { kind: string }) => e.kind),
      ['ORDER_DEBIT', 'REFUND'],
    );
    assert.equal(sum(d.ledger.map((e: { amount: number }) => e.amount)), 0, 'refunded in full');
    const ledger = await ledgerOf('topups', id);
    assert.deepEqual(
      d.ledger.map((e: { entryId: number }) => e.entryId),
      ledger.map((e: { entryId: number }) => e.entryId),
    );
  });

  test("the console's page of a transaction is the account's own", async () => {
    const operator = await consoleSession(server, 'support-receipts@example.com');
    const list = await customer.get('/api/transactions?environment=sandbox');
    assert.ok(list.body.items.length >= 2);
    for (const line of list.body.items as { product: string; transactionId: number }[]) {
      const path = `/transactions/${line.product}/${line.transactionId}?environment=sandbox`;
      const mine = await customer.get(`/api${path}`);
      const theirs = await operator.get(`/api/accounts/${account.accountId}${path}`);
      assert.equal(theirs.status, 200, theirs.text);
      assert.deepEqual(theirs.body, mine.body);
    }
    const wrong = await operator.get(
      `/api/accounts/${account.accountId + 1}/transactions/giftcards/${list.body.items[0].transactionId}?environment=sandbox`,
    );
    assert.equal(wrong.status, 404, 'another account has no such transaction');
  });

  test("another account's transaction, or the other product's id, is not found", async () => {
    const list = await customer.get('/api/transactions?environment=sandbox');
    for (const line of list.body.items as { product: string; transactionId: number }[]) {
      const other = await stranger.get(
        `/api/transactions/${line.product}/${line.transactionId}?environment=sandbox`,
      );
      assert.equal(other.status, 404, other.text);
      const live = await customer.get(
        `/api/transactions/${line.product}/${line.transactionId}?environment=live`,
      );
      assert.equal(live.status, 404, 'the other environment has no such transaction');
    }
    assert.equal((await customer.get('/api/transactions/giftcards/999999?environment=sandbox')).status, 404);
    // any role reads it (permission read); the codes stay behind 'codes'
    const viewer = await dashboardSession(server, account.accountId, 'v@example.com');
    await sql`UPDATE web_users SET role = 'viewer' WHERE id = ${viewer.userId}`.execute(server.db.kysely);
    const first = list.body.items[0] as { product: string; transactionId: number };
    const seen = await viewer.get(
      `/api/transactions/${first.product}/${first.transactionId}?environment=sandbox`,
    );
    assert.equal(seen.status, 200, seen.text);
    assert.equal((await customer.get('/api/transactions/cards/1?environment=sandbox')).status, 400);
  });
});

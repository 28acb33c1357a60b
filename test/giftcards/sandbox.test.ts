import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { D } from './helpers.ts';

// The sandbox simulator's documented test values (README "Sandbox test values"), the state machine
// of decisions §6, the durable poller, and the redeem codes: encrypted at rest, exact on the wire.
const order = (productId: number, extra: object = {}) => ({
  productId,
  quantity: 1,
  unitPrice: 10,
  senderName: 'Ada',
  ...extra,
});

describe('sandbox fulfilment', () => {
  let server: TestServer;
  let client: Caller;
  // A failed step fails the test instead of waiting for the next run.
  const runDue = () =>
    server.runtime.services.worker.runDue((error) => {
      throw error;
    });
  const balance = async () => (await client.get('/accounts/balance')).body.balance;
  before(async () => {
    server = await startTestServer({
      env: { SANDBOX_PROCESSING_SECONDS: '5', SANDBOX_PREORDER_SECONDS: '30' },
    });
  });
  // every case has an account of its own: no case sees another's balance or orders
  beforeEach(async () => {
    client = await server.caller('giftcards', 'sandbox', { fund: 1000 });
  });
  after(() => server.close());

  test('product 21: PROCESSING, then SUCCESSFUL once its time has come', async () => {
    const placed = await client.post('/orders', order(21));
    assert.equal(placed.status, 200);
    assert.equal(placed.body.status, 'PROCESSING');
    const cards = await client.get(`/orders/transactions/${placed.body.transactionId}/cards`);
    assert.equal(cards.status, 422, 'no codes before SUCCESSFUL');
    assert.equal(cards.body.errorCode, 'UNPROCCESSABLE_ENTITY');
    await runDue();
    const early = await client.get(`/reports/transactions/${placed.body.transactionId}`);
    assert.equal(early.body.status, 'PROCESSING');
    server.clock.advance(5_000);
    await runDue();
    const done = await client.get(`/reports/transactions/${placed.body.transactionId}`);
    assert.equal(done.body.status, 'SUCCESSFUL');
    assert.equal(
      (await client.get(`/orders/transactions/${placed.body.transactionId}/cards`)).body.length,
      1,
    );
  });

  test('product 22: out of stock; a pre-order stays PENDING, then is served', async () => {
    const refused = await client.post('/orders', order(22));
    assert.equal(refused.status, 422);
    const before = await balance();
    const placed = await client.post('/orders', order(22, { preOrder: true }));
    assert.equal(placed.status, 200);
    assert.equal(placed.body.status, 'PENDING');
    assert.equal(placed.body.preOrdered, true);
    assert.equal(
      await balance(),
      new D(before).minus(placed.body.amount).toNumber(),
      'debited when accepted',
    );
    server.clock.advance(29_000);
    await runDue();
    assert.equal(
      (await client.get(`/reports/transactions/${placed.body.transactionId}`)).body.status,
      'PENDING',
    );
    server.clock.advance(1_000);
    await runDue();
    assert.equal(
      (await client.get(`/reports/transactions/${placed.body.transactionId}`)).body.status,
      'SUCCESSFUL',
    );
  });

  test('product 24: FAILED with the funds held, then REFUNDED with a refund entry', async () => {
    const before = await balance();
    const placed = await client.post('/orders', order(24));
    assert.equal(placed.body.status, 'FAILED');
    assert.equal(await balance(), new D(before).minus(placed.body.amount).toNumber());
    server.clock.advance(5_000);
    await runDue();
    const refunded = (await client.get(`/reports/transactions/${placed.body.transactionId}`)).body;
    assert.equal(refunded.status, 'REFUNDED');
    assert.equal(await balance(), before);
    assert.equal(refunded.balanceInfo.oldBalance, before);
    assert.equal(refunded.balanceInfo.newBalance, before, 'the balance the refund left');
    const refunds = await sql<{ amount: string }>`
      SELECT amount::text FROM ledger_entries
      WHERE kind = 'REFUND' AND product = 'giftcards' AND transaction_id = ${placed.body.transactionId}`.execute(
      server.db.kysely,
    );
    assert.deepEqual(
      refunds.rows.map((r) => Number(r.amount)),
      [placed.body.amount],
    );
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('product 25: REFUNDED at once, balance given back, no codes', async () => {
    const before = await balance();
    const placed = await client.post('/orders', order(25));
    assert.equal(placed.body.status, 'REFUNDED');
    assert.equal(await balance(), before);
    // balanceInfo of a refunded order: the balance before its debit and after its refund.
    assert.equal(placed.body.balanceInfo.oldBalance, before);
    assert.equal(
      placed.body.balanceInfo.newBalance,
      before,
      'newBalance after the refund, not after the debit',
    );
    assert.equal(placed.body.balanceInfo.cost, placed.body.amount);
    const report = await client.get(`/reports/transactions/${placed.body.transactionId}`);
    assert.deepEqual(report.body.balanceInfo, placed.body.balanceInfo);
    assert.equal((await client.get(`/orders/transactions/${placed.body.transactionId}/cards`)).status, 422);
    await runDue();
    assert.equal(await balance(), before, 'refunded once only');
  });

  test('every other valid order succeeds at once', async () => {
    for (const productId of [11, 1840, 4990]) {
      const p = (await client.get(`/products/${productId}`)).body;
      const unitPrice =
        p.denominationType === 'FIXED' ? p.fixedRecipientDenominations[0] : p.minRecipientDenomination;
      const placed = await client.post('/orders', order(productId, { unitPrice }));
      assert.equal(placed.status, 200, placed.text);
      assert.equal(placed.body.status, 'SUCCESSFUL');
    }
  });

  test('codes: stored encrypted, sent as exact JSON numbers, strings when not plain digits', async () => {
    const placed = await client.post('/orders', order(11, { quantity: 10 }));
    const id = placed.body.transactionId;
    const answer = await client.get(`/orders/transactions/${id}/cards`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.equal(answer.body.length, 10);
    // The raw text carries the full digits; a JSON number with 16 digits can't round-trip a double.
    const raw = [...answer.text.matchAll(/"cardNumber":("?)(\w+)\1/g)];
    assert.equal(raw.length, 10);
    for (const [, quoted, digits] of raw) {
      assert.match(digits, /^\d{16}$/);
      assert.equal(quoted === '"', digits.startsWith('0'), 'a leading zero is sent as a string');
    }
    const stored = await sql<{ card_number: string; pin_code: string }>`
      SELECT card_number, pin_code FROM giftcard_cards WHERE transaction_id = ${id}`.execute(
      server.db.kysely,
    );
    assert.equal(stored.rows.length, 10);
    for (const row of stored.rows) {
      assert.ok(!raw.some(([, , digits]) => row.card_number.includes(digits)), 'not stored in clear');
      assert.match(row.card_number, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
    const letters = await client.post('/orders', order(13));
    const codes = await client.get(`/orders/transactions/${letters.body.transactionId}/cards`);
    assert.equal(typeof codes.body[0].cardNumber, 'string');
    assert.match(codes.body[0].cardNumber, /^[A-Z2-9]{4}(-[A-Z2-9]{4}){2}$/);
    assert.equal(typeof codes.body[0].pinCode, 'string');
  });

  test('the poller finishes due orders by itself, and stops', async () => {
    const placed = await client.post('/orders', order(21));
    assert.equal(placed.body.status, 'PROCESSING');
    server.clock.advance(5_000);
    const poller = server.runtime.services.worker;
    poller.start();
    try {
      const deadline = Date.now() + 5_000;
      let status = 'PROCESSING';
      while (status !== 'SUCCESSFUL' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await client.get(`/reports/transactions/${placed.body.transactionId}`)).body.status;
      }
      assert.equal(status, 'SUCCESSFUL');
    } finally {
      await poller.stop();
    }
  });
});

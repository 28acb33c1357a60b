import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { retryAgainstTwin } from '../harness/twin-order.ts';

// On PostgreSQL with real concurrency: the balance row lock and the customIdentifier unique index
// decide, never a read-then-write race (issue 3 "Must show").
// Product 11, 10.00 USD: 10 + fee (0.50 + 1% of 10) - discount (2% of 10) = 10.40 per order.
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' };

describe('gift card orders under concurrency (PostgreSQL)', async () => {
  const available = await postgresForTests();
  let server: TestServer;
  before(async () => {
    if (available) server = await startTestServer({ database: 'postgres' });
  });
  after(() => server?.close());

  async function ledgerOf(accountId: number) {
    const row = await sql<{ balance: string; sum: string; orders: string }>`
      SELECT (SELECT balance FROM balances WHERE account_id = ${accountId} AND environment = 'sandbox')::text AS balance,
             (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE account_id = ${accountId})::text AS sum,
             (SELECT COUNT(*) FROM giftcard_transactions WHERE account_id = ${accountId})::text AS orders`.execute(
      server.db.kysely,
    );
    return row.rows[0];
  }

  test('100 concurrent orders on an account that can pay for 40: exactly 40 accepted', {
    skip: !available && 'PostgreSQL not reachable',
  }, async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: '416.00' });
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.post('/orders', ORDER)));
    const accepted = answers.filter((a) => a.status === 200);
    assert.equal(accepted.length, 40);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 403);
      assert.equal(a.body.errorCode, 'INSUFFICIENT_BALANCE');
    }
    assert.equal(new Set(accepted.map((a) => a.body.transactionId)).size, 40);
    const state = await ledgerOf(client.account.accountId);
    assert.equal(Number(state.balance), 0);
    assert.equal(Number(state.sum), 0);
    assert.equal(Number(state.orders), 40);
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('a retry that waited for the account while its twin committed hears CUSTOM_IDENTIFIER_ALREADY_USED, not that the money is gone', {
    skip: !available && 'PostgreSQL not reachable',
  }, async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: '20.80' });
    const accountId = client.account.accountId;
    const first = await client.post('/orders', { ...ORDER, customIdentifier: 'first' });
    assert.equal(first.status, 200, first.text);
    // The twin: another process's order with the same customIdentifier, in flight. Its transaction
    // holds the balance row and takes the rest of the money; it commits while the retry waits.
    const answer = await retryAgainstTwin(
      server,
      {
        product: 'giftcards',
        accountId,
        price: '10.40',
        copyOf: first.body.transactionId,
        columns: { custom_identifier: 'twin' },
      },
      () => client.post('/orders', { ...ORDER, customIdentifier: 'twin' }),
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
    const state = await ledgerOf(accountId);
    assert.equal(Number(state.balance), 0);
    assert.equal(Number(state.orders), 2, 'the first and the twin');
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('20 concurrent orders sharing one customIdentifier: exactly one transaction', {
    skip: !available && 'PostgreSQL not reachable',
  }, async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: 1000 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/orders', { ...ORDER, customIdentifier: 'same-ref' })),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 400);
      assert.equal(a.body.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
    }
    const state = await ledgerOf(client.account.accountId);
    assert.equal(Number(state.orders), 1);
    assert.equal(state.balance.replace(/0+$/, ''), '989.6');
    assert.equal(Number(state.sum), Number(state.balance));
    assert.deepEqual(await server.admin.audit(), []);
  });
});

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dec } from '../../src/lib/money.ts';
import { AUDIENCES } from '../harness/client.ts';
import { debitsOnly } from '../harness/debits-only.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

// ORDER_BATCH_MAX (modules/group-commit/): the most orders of one account in one transaction. 1 turns
// batching off (every order in a transaction of its own, for bisecting a fault that might be the
// batching's); a small cap keeps batches forming but never larger. Either way every order gets its
// answer and the money agrees.
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' };

/** A burst of 16 gift card orders and 8 top-ups of one account; the batch counters around it. */
async function burst(server: TestServer) {
  const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
  const topupToken = await server.admin.token(client.account, AUDIENCES.topupsSandbox);
  const before = server.runtime.services.ledger.batchStats();
  const answers = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      i % 3 === 2
        ? server.http.post(
            '/topups-sandbox/topups',
            {
              operatorId: 1001,
              amount: 5,
              recipientPhone: { countryCode: 'NG', number: `0803${6200000 + i}` },
              customIdentifier: `max-${i}`,
            },
            { token: topupToken, headers: { accept: VENDOR_ACCEPT } },
          )
        : client.post('/orders', { ...ORDER, customIdentifier: `max-${i}` }),
    ),
  );
  for (const a of answers) assert.equal(a.status, 200, a.text);
  const after = server.runtime.services.ledger.batchStats();
  assert.deepEqual(await server.admin.audit(), []);
  return {
    orders: after.orders - before.orders,
    batches: after.batches - before.batches,
    fallbacks: after.fallbacks - before.fallbacks,
  };
}

describe('ORDER_BATCH_MAX', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  test('1: every order in a transaction of its own, the answers and the money as with batches', async () => {
    const server = await startTestServer({ env: { ORDER_BATCH_MAX: '1' } });
    servers.push(server);
    const counted = await burst(server);
    assert.deepEqual(counted, { orders: 24, batches: 24, fallbacks: 0 });
  });

  test('3: batches still form, none of more than three orders', async () => {
    const server = await startTestServer({ env: { ORDER_BATCH_MAX: '3' } });
    servers.push(server);
    const counted = await burst(server);
    assert.equal(counted.orders, 24);
    assert.ok(counted.batches >= 8, `a batch of more than three: ${JSON.stringify(counted)}`);
    // 24 debits queued with a slow transaction of their account, 25 works in one lane: nine batches
    // of at most three (with the default cap, one batch of all 25)
    const { ledger } = server.runtime.services;
    const debit = debitsOnly(ledger);
    const client = await server.caller('giftcards', 'sandbox', { fund: '100.00' });
    const key = { accountId: client.account.accountId, environment: 'sandbox' as const };
    const slow = ledger.orderTransaction(key, async (trx) => {
      await sql`SELECT pg_sleep(0.2)`.execute(trx);
    });
    const before = ledger.batchStats();
    const debits = Array.from({ length: 24 }, (_, i) =>
      ledger.orderTransaction(key, (trx) =>
        debit(trx, {
          ...key,
          amount: dec('1.25'),
          product: 'giftcards',
          transactionId: 990_000 + i,
        }),
      ),
    );
    await slow;
    const posted = await Promise.all(debits);
    const after = ledger.batchStats();
    assert.equal(posted.at(-1)?.newBalance.toFixed(), '70');
    assert.deepEqual(
      { batches: after.batches - before.batches, fallbacks: after.fallbacks - before.fallbacks },
      { batches: Math.ceil(25 / 3), fallbacks: 0 },
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createLeases } from '../../src/worker/lease-repository.ts';
import { messageDeliveryJob, YIELD_MAX_MS } from '../../src/worker/message-delivery-job.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 30: the outbox yields to a burst of orders. While the order path is busy, a run of the
// message job takes only the messages that have waited YIELD_MAX_MS or longer; otherwise all that
// are due. The order path's "busy" is the group commit's count of orders in flight.
const AMAZON_US = 1840;
const ORDERS = 40;
let server: TestServer;

before(async () => {
  server = await startTestServer();
  await server.admin.call('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' });
  const rows = Array.from(
    { length: ORDERS },
    (_, i) => `56000000000${String(i).padStart(5, '0')},${100000 + i},25`,
  );
  const csv = `cardNumber,pinCode,faceValue\n${rows.join('\n')}\n`;
  assert.equal((await server.admin.call('POST', `/products/${AMAZON_US}/stock`, { csv })).status, 200);
});
after(() => server?.close());

test('while the order path is busy a run sends only the messages that have waited too long', async () => {
  const client = await server.caller('giftcards', 'live', { fund: 2000 });
  const placed = await Promise.all(
    Array.from({ length: ORDERS }, (_, i) =>
      client.post('/orders', {
        productId: AMAZON_US,
        quantity: 1,
        unitPrice: 25,
        senderName: 'Ada',
        recipientEmail: `yield-${i}@example.org`,
      }),
    ),
  );
  for (const p of placed) assert.equal(p.status, 200, p.text);
  let busy = true;
  const leases = createLeases(server.db.kysely, { owner: 'yield-test', leaseMs: 30_000 });
  const job = messageDeliveryJob(server.runtime.services.messaging, leases, 1000, () => busy);
  const claimAndGiveBack = async () => {
    const claimed = await job.due(server.clock.now(), 400);
    await job.release?.(claimed);
    return claimed.length;
  };

  assert.equal(await claimAndGiveBack(), 0, 'busy: none of the new ones');
  // a moment before the first of them has waited YIELD_MAX_MS: still none
  const { rows: first } = await sql<{ at: Date }>`
    SELECT min(next_attempt_at) AS at FROM messages`.execute(server.db.kysely);
  const shift = new Date(first[0].at).getTime() + YIELD_MAX_MS - 1 - server.clock.now().getTime();
  server.clock.advance(shift);
  try {
    assert.equal(await claimAndGiveBack(), 0, 'busy: none has waited long enough');
  } finally {
    server.clock.advance(-shift);
  }
  busy = false;
  assert.equal(await claimAndGiveBack(), ORDERS, 'quiet again: every message due');
  busy = true;
  server.clock.advance(YIELD_MAX_MS);
  try {
    assert.equal(await claimAndGiveBack(), ORDERS, 'busy, but all have waited long enough');
  } finally {
    server.clock.advance(-YIELD_MAX_MS);
  }
  // the worker's own job, with the order path quiet, sends them all
  await server.runtime.services.worker.runDue();
  const { rows } = await sql<{ status: string; n: number }>`
    SELECT status, count(*)::int AS n FROM messages GROUP BY status`.execute(server.db.kysely);
  assert.deepEqual(rows, [{ status: 'unsent', n: ORDERS }]);
});

test('the group commit counts the orders waiting for or running in their transactions', async () => {
  const { ledger } = server.runtime.services;
  const c = await server.caller('giftcards', 'sandbox', { fund: 10 });
  const key = { accountId: c.account.accountId, environment: 'sandbox' as const };
  assert.equal(ledger.ordersInFlight(), 0);
  const slow = ledger.orderTransaction(key, async (trx) => {
    await sql`SELECT pg_sleep(0.1)`.execute(trx);
  });
  const others = Array.from({ length: 5 }, () => ledger.orderTransaction(key, async () => 1));
  const failing = ledger.orderTransaction(key, async () => {
    throw new Error('refused');
  });
  assert.equal(ledger.ordersInFlight(), 7);
  await slow;
  await Promise.all(others);
  await assert.rejects(failing, /refused/);
  assert.equal(ledger.ordersInFlight(), 0, 'answered or refused, none is counted');
});

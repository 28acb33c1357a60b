import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLeases } from '../../src/worker/index.ts';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Leases on the rows of background work (src/worker/lease-repository.ts), on a real database: two
// servers' claims never share a row, a lease held by a live server keeps the row from the other, an
// expired one (its server died) is taken over, a released one is due again at once.
let server: TestServer;
let c: Caller;
before(async () => {
  server = await startTestServer({ env: { TOPUP_RECENT_RECHARGE_SECONDS: '0' } });
  c = await server.caller('topups', 'sandbox', { fund: 1000 });
});
after(() => server.close());

let serial = 0;
async function processingTopups(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const number = `0803${String(serial++ % 100).padStart(2, '0')}99990`;
    const a = await c.post('/topups', {
      operatorId: 1001,
      amount: 10,
      recipientPhone: { countryCode: 'NG', number },
    });
    assert.equal(a.body.status, 'PROCESSING', a.text);
    ids.push(a.body.transactionId);
  }
  return ids;
}

describe('worker leases', () => {
  test('two servers claiming at once share the due rows: none twice, none left out', async () => {
    const ids = await processingTopups(6);
    const leaseMs = 30_000;
    const a = createLeases(server.db.kysely, { owner: 'server-a', leaseMs });
    // server-b's leases outlast server-a's, so only server-a's rows come free below
    const b = createLeases(server.db.kysely, { owner: 'server-b', leaseMs: 4 * leaseMs });
    server.clock.advance(31_000);
    const now = server.clock.now();
    const [ra, rb] = await Promise.all([
      a.claim('topup_transactions', 'next_check_at', now, 3),
      b.claim('topup_transactions', 'next_check_at', now, 100),
    ]);
    const got = [...ra, ...rb].map((r) => r.id).filter((id) => ids.includes(id));
    assert.deepEqual([...got].sort(), [...ids].sort(), 'every due row leased once');
    assert.equal(new Set(got).size, got.length);
    assert.ok(ra.every((r) => r.leased_by === 'server-a') && rb.every((r) => r.leased_by === 'server-b'));

    // held: nobody else gets them while the lease runs
    assert.equal((await b.claim('topup_transactions', 'next_check_at', now, 100)).length, 0);
    // server-a dies holding its rows: after the lease, server-b takes them over
    server.clock.advance(leaseMs);
    const taken = await b.claim('topup_transactions', 'next_check_at', server.clock.now(), 100);
    assert.deepEqual(
      taken.map((r) => r.id),
      ra.map((r) => r.id),
    );
    // a released row is due again at once; release only ends the owner's own lease
    await a.release(
      'topup_transactions',
      taken.map((r) => r.id),
    );
    assert.equal((await a.claim('topup_transactions', 'next_check_at', server.clock.now(), 100)).length, 0);
    await b.release(
      'topup_transactions',
      taken.map((r) => r.id),
    );
    const again = await a.claim('topup_transactions', 'next_check_at', server.clock.now(), 100);
    assert.deepEqual(
      again.map((r) => r.id),
      taken.map((r) => r.id),
    );
  });

  test('the worker leases what it runs and ends the lease after each job', async () => {
    const [id] = await processingTopups(1);
    server.clock.advance(31_000);
    await server.runtime.services.worker.runDue();
    const row = await server.db.kysely
      .selectFrom('topup_transactions')
      .select(['status', 'lease_until', 'leased_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'SUCCESSFUL');
    assert.equal(row.lease_until, null);
    assert.equal(row.leased_by, null);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';

// The balance read answers from memory (modules/ledger/balance-cache.ts) and must stay exact: in the
// server that made a change, the very next read shows it, whatever the kind of ledger write (order,
// refund at once, refund made later by the worker, funding, adjustment), on both databases. Each
// write comes after a read that filled the cache, so a stale kept balance would be seen.
const pg = await postgresForTests();

for (const database of ['pglite', 'postgres'] as const) {
  describe(`the kept balance on ${database}`, {
    skip: database === 'postgres' && !pg && 'PostgreSQL not reachable',
  }, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ database, env: { SANDBOX_PROCESSING_SECONDS: '5' } });
    });
    after(() => server?.close());

    /** The balance row as committed in the database. */
    const stored = async (accountId: number) => {
      const { rows } = await sql<{ balance: string; updatedAt: Date }>`
        SELECT balance::text AS balance, updated_at AS "updatedAt" FROM balances
        WHERE account_id = ${accountId} AND environment = 'sandbox'`.execute(server.db.kysely);
      // The API shows the time to the second.
      return { balance: Number(rows[0].balance), updatedAt: rows[0].updatedAt.toISOString().slice(0, 19) };
    };

    async function newClient() {
      const client = await server.caller('giftcards', 'sandbox', { fund: '100.00' });
      /** Reads the balance twice (the second from memory when it is kept) and checks both. */
      const check = async (what: string) => {
        const expected = await stored(client.account.accountId);
        for (let i = 0; i < 2; i++) {
          const read = await client.get('/accounts/balance');
          assert.equal(read.status, 200, read.text);
          assert.equal(read.body.balance, expected.balance, `${what}: balance (read ${i + 1})`);
          assert.equal(
            new Date(read.body.updatedAt).toISOString().slice(0, 19),
            expected.updatedAt,
            `${what}: updatedAt (read ${i + 1})`,
          );
        }
        return expected.balance;
      };
      return { ...client, check };
    }

    test('exact after every kind of ledger write, read at once by the same server', async () => {
      const client = await newClient();
      const id = client.account.accountId;
      const order = (productId: number, unitPrice = 10) =>
        client.post('/orders', { productId, quantity: 1, unitPrice, senderName: 'B' });
      const start = await client.check('new account');
      assert.equal(start, 100);

      const ordered = await order(11);
      assert.equal(ordered.status, 200, ordered.text);
      const afterOrder = await client.check('after an order');
      assert.ok(afterOrder < start);

      const refundedAtOnce = await order(25);
      assert.equal(refundedAtOnce.status, 200, refundedAtOnce.text);
      assert.equal(await client.check('after an order refunded at once'), afterOrder);

      await server.admin.fund(id, '12.34');
      assert.equal(await client.check('after a funding'), Number((afterOrder + 12.34).toFixed(2)));

      const adjusted = await server.admin.call('POST', `/accounts/${id}/adjust`, {
        environment: 'sandbox',
        amount: -12.34,
        reason: 'test adjustment',
      });
      assert.equal(adjusted.status, 200, adjusted.text);
      assert.equal(await client.check('after an adjustment'), afterOrder);

      // Failed, then refunded by the worker SANDBOX_PROCESSING_SECONDS later: the refund is posted
      // inside the worker's own transaction, with no request (and no webhook) telling anybody.
      const failing = await order(24);
      assert.equal(failing.status, 200, failing.text);
      assert.ok((await client.check('after an order that will be refunded')) < afterOrder);
      server.clock.advance(6_000);
      await server.runtime.services.worker.runDue((error) => {
        throw error;
      });
      const refunded = await client.get(`/reports/transactions/${failing.body.transactionId}`);
      assert.equal(refunded.body.status, 'REFUNDED', refunded.text);
      assert.equal(await client.check('after the worker refunded'), afterOrder);

      const refused = await order(12, 500);
      assert.equal(refused.body.errorCode, 'INSUFFICIENT_BALANCE', refused.text);
      assert.equal(await client.check('after a refused order'), afterOrder);
      assert.deepEqual(await server.admin.audit(), []);
    });

    test('concurrent orders and reads: every read is a balance the ledger had, the last one exact', async () => {
      const client = await newClient();
      const id = client.account.accountId;
      await client.check('before');
      const seen: number[] = [];
      const reads = (async () => {
        for (let i = 0; i < 40; i++) seen.push((await client.get('/accounts/balance')).body.balance);
      })();
      const orders = await Promise.all(
        Array.from({ length: 8 }, () =>
          client.post('/orders', { productId: 11, quantity: 1, unitPrice: 10, senderName: 'C' }),
        ),
      );
      await reads;
      for (const o of orders) assert.equal(o.status, 200, o.text);
      const { rows } = await sql<{ after: string }>`
        SELECT balance_after::text AS after FROM ledger_entries WHERE account_id = ${id} AND environment = 'sandbox'`.execute(
        server.db.kysely,
      );
      const had = new Set(rows.map((r) => Number(r.after)));
      for (const b of seen) assert.ok(had.has(b), `${b} was never a balance of the account`);
      const last = await client.check('after the orders');
      assert.equal(last, Math.min(...had));
    });

    test('what is read comes from memory once kept (a change that nobody announced stays unseen)', async () => {
      const client = await newClient();
      await client.check('kept');
      // A change made with the database's triggers off for this one statement is announced to no one:
      // a server that answers the old balance is answering from memory.
      await server.db.kysely.transaction().execute(async (trx) => {
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
        await sql`UPDATE balances SET balance = balance + 1
                  WHERE account_id = ${client.account.accountId} AND environment = 'sandbox'`.execute(trx);
      });
      assert.equal((await client.get('/accounts/balance')).body.balance, 100);
      // The next ledger write is announced with the row as it is: exact from then on.
      await server.admin.fund(client.account.accountId, '1');
      assert.equal(await client.check('after the next write'), 102);
      // Put right (announced this time), so the ledger audit agrees again.
      await sql`UPDATE balances SET balance = balance - 1
                WHERE account_id = ${client.account.accountId} AND environment = 'sandbox'`.execute(
        server.db.kysely,
      );
      // Announced at its commit, heard by the server's listening connection a moment later (on
      // PostgreSQL the notification comes on its own; the promise is "within a second").
      const deadline = Date.now() + 1_000;
      while ((await client.get('/accounts/balance')).body.balance !== 101) {
        assert.ok(Date.now() < deadline, 'a change made in the database was still unseen after a second');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(await client.check('after a change made in the database'), 101);
      assert.deepEqual(await server.admin.audit(), []);
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { executePrepared } from '../../src/db/prepared.ts';
import type { Database } from '../../src/db/schema.ts';
import { createGathering, createGroupCommit } from '../../src/modules/group-commit/index.ts';
import { type NewTopup, topupsRepository } from '../../src/modules/topups/orders/orders-repository.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';
import { createPostgresDatabase } from '../harness/templates.ts';

// The COMMIT pipelined behind a batch's last statement (modules/group-commit/batcher.ts, PostgreSQL):
// batches of gift card orders commit that way; a batch that does not fit rolls back whole, the day's
// usage row included (the refusal is raised inside the statement); and a batch whose COMMIT was sent
// is never run again, even when the COMMIT's answer is lost: its orders would be debited twice.
const available = await postgresForTests();
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' }; // 10.40 USD each
// one server on PostgreSQL for the gift card and top-up suites below
let server: TestServer;
before(async () => {
  if (available) server = await startTestServer({ database: 'postgres' });
});
after(() => server?.close());

describe('the COMMIT behind the last statement, through the server (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  const usage = async (accountId: number) =>
    (
      await sql<{ count: number; amount: string }>`
        SELECT COALESCE(SUM(order_count), 0)::int AS count, COALESCE(SUM(order_amount), 0)::numeric(20, 2)::text AS amount
        FROM daily_order_usage WHERE account_id = ${accountId}`.execute(server.db.kysely)
    ).rows[0];

  test('a burst of orders commits in batches whose COMMIT went behind their debits', async () => {
    const before = server.runtime.services.ledger.batchStats();
    const client = await server.caller('giftcards', 'sandbox', { fund: '1000.00' });
    const answers = await Promise.all(Array.from({ length: 40 }, () => client.post('/orders', ORDER)));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.commitsBehind > before.commitsBehind, JSON.stringify({ before, after }));
    assert.deepEqual(await usage(client.account.accountId), { count: 40, amount: '416.00' });
    assert.equal((await client.get('/accounts/balance')).body.balance, 584);
    assert.deepEqual(await server.admin.audit(), []);
  });

  test("a batch that does not fit the balance keeps nothing, not even the day's usage", async () => {
    // 31.20 pays for three orders: batches of the eight do not fit and fall back to one at a time.
    const client = await server.caller('giftcards', 'sandbox', { fund: '31.20' });
    const before = server.runtime.services.ledger.batchStats();
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post('/orders', ORDER)));
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.fallbacks > before.fallbacks, 'no batch was refused');
    const accepted = answers.filter((a) => a.status === 200);
    assert.equal(accepted.length, 3);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.body.errorCode, 'INSUFFICIENT_BALANCE', a.text);
    }
    assert.deepEqual(await usage(client.account.accountId), { count: 3, amount: '31.20' });
    assert.deepEqual(await server.admin.audit(), []);
  });
});

describe('top-ups: the COMMIT behind their rows (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  const topup = (c: Awaited<ReturnType<TestServer['caller']>>, number: string) =>
    c.post('/topups', { operatorId: 1001, amount: 10, recipientPhone: { countryCode: 'NG', number } });

  test('a burst of top-ups to numbers of their own commits behind their rows', async () => {
    const before = server.runtime.services.ledger.batchStats();
    const c = await server.caller('topups', 'sandbox', { fund: 1000 });
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => topup(c, `0803${7000000 + i}`)));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const after = server.runtime.services.ledger.batchStats();
    assert.ok(after.commitsBehind > before.commitsBehind, JSON.stringify({ before, after }));
    assert.deepEqual(await server.admin.audit(), []);
  });

  test("a batch's rows go in all or none: a check met under the lock raises, nothing is kept", async () => {
    const c = await server.caller('topups', 'sandbox', { fund: 1000 });
    const first = await topup(c, '08038000000');
    assert.equal(first.status, 200, first.text);
    const repository = topupsRepository(server.db.kysely, { seal: async (v) => v, open: async (v) => v });
    const [stored] = (
      await sql<NewTopup>`SELECT * FROM topup_transactions WHERE id = ${first.body.transactionId}`.execute(
        server.db.kysely,
      )
    ).rows;
    const ids = (
      await sql<{
        id: number;
      }>`SELECT nextval(pg_get_serial_sequence('topup_transactions', 'id')) AS id FROM generate_series(1, 2)`.execute(
        server.db.kysely,
      )
    ).rows.map((r) => Number(r.id));
    const since = new Date(Date.now() - 60_000);
    const item = (id: number, phone: string) => ({
      row: { ...stored, id, recipient_phone: phone, custom_identifier: null, pin_detail: null } as NewTopup,
      since,
      checkCustomIdentifier: false,
    });
    // a fresh number, and the number just topped up (recently recharged)
    const items = [item(ids[0], `${stored.recipient_phone}9`), item(ids[1], String(stored.recipient_phone))];
    const alone = await server.db.kysely
      .transaction()
      .execute(async (trx) => {
        const answers = await repository.insertChecked(trx, items);
        throw Object.assign(new Error('roll back'), { answers });
      })
      .catch(
        (error: { answers?: unknown }) =>
          error.answers as Array<{ row: unknown; recentlyRecharged: boolean }>,
      );
    assert.deepEqual(
      alone.map((a) => [a.row !== null, a.recentlyRecharged]),
      [
        [true, false],
        [false, true],
      ],
      'alone, each answer says what became of its row',
    );
    await assert.rejects(
      server.db.kysely
        .transaction()
        .execute((trx) => repository.insertChecked(trx, items, { run: executePrepared })),
      (error: { code?: string }) => error.code === 'AG001',
    );
    const kept = await sql`SELECT id FROM topup_transactions WHERE id IN (${ids[0]}, ${ids[1]})`.execute(
      server.db.kysely,
    );
    assert.equal(kept.rows.length, 0);
  });
});

describe('a batch whose COMMIT answer is lost is never run again (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  for (const commitBehind of [true, false]) {
    test(`${commitBehind ? 'the COMMIT pipelined behind the last statement' : 'the COMMIT sent after the work'}`, async (t) => {
      const database = await createPostgresDatabase();
      const proxy = await startTcpProxy();
      proxy.setTarget(Number(new URL(database.url).port || 5432));
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const db = await openDatabase({ url: proxied.toString(), poolSize: 2 }, { guard: false });
      t.after(async () => {
        await db.close();
        await proxy.close();
        await database.drop();
      });
      await sql`CREATE TABLE commit_probe (id serial PRIMARY KEY, job int NOT NULL)`.execute(db.kysely);
      const commits = createGroupCommit(db.kysely, { commitBehind });
      // each job's one statement, gathered for the batch, and the last statement of its work
      const inserts = createGathering<number, number>({
        gathers: commits.inBatch,
        one: async (trx, job) =>
          (
            await sql<{ id: number }>`INSERT INTO commit_probe (job) VALUES (${job}) RETURNING id`.execute(
              trx,
            )
          ).rows[0].id,
        many: async (trx, jobs) =>
          (
            await commits.runLast(
              trx,
              sql<{ id: number }>`INSERT INTO commit_probe (job) SELECT unnest(${jobs}::int[]) RETURNING id`,
              jobs.length,
            )
          ).rows.map((r) => r.id),
      });
      const run = (job: number) =>
        commits.run({ accountId: 1, environment: 'sandbox' }, (trx: Kysely<Database>) =>
          inserts.run(trx, job),
        );

      // a batch that commits normally first: the connections are open, the statement prepared
      assert.equal((await Promise.all([1, 2, 3].map(run))).length, 3);
      proxy.loseAnswersAfter('COMMIT');
      const outcomes = await Promise.allSettled([11, 12, 13, 14, 15].map(run));
      for (const o of outcomes) {
        assert.equal(o.status, 'rejected', 'an order whose commit was not answered was told it succeeded');
        assert.equal((o.reason as { code?: string }).code, '08007', String(o.reason));
      }
      const stats = commits.stats();
      assert.equal(stats.fallbacks, 0, 'the batch was run again');
      if (commitBehind) assert.equal(stats.commitsBehind, 2);
      // the COMMIT did reach PostgreSQL: the batch is there, once
      const rows = await sql<{
        job: number;
      }>`SELECT job FROM commit_probe WHERE job > 10 ORDER BY job`.execute(db.kysely);
      assert.deepEqual(
        rows.rows.map((r) => r.job),
        [11, 12, 13, 14, 15],
      );
    });
  }
});

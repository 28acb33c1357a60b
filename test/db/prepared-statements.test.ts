import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { executePrepared } from '../../src/db/prepared.ts';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import { createLeases } from '../../src/worker/lease-repository.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { createPostgresDatabase } from '../harness/templates.ts';

// Issue 30: the order path's and the outbox's fixed statements run as named prepared statements on
// PostgreSQL (db/prepared.ts), and a recipient's e-mail costs three statements: the order, the link
// (its token hash stored in the same statement) and the outcome, which also ends the message's lease.
describe('prepared statements and the outbox statements (postgres)', async () => {
  const available = await postgresForTests();
  let server: TestServer;
  before(async () => {
    if (available) server = await startTestServer({ database: 'postgres' });
  });
  after(() => server?.close());

  test('a registered statement is prepared once on its connection and survives a rolled-back transaction', {
    skip: !available,
  }, async () => {
    const db = server.db.kysely;
    const plusOne = (n: number) => sql<{ n: number }>`SELECT ${n}::int + 1 AS n`;
    await db.transaction().execute(async (trx) => {
      assert.equal((await executePrepared(trx, plusOne(41))).rows[0].n, 42);
      assert.equal((await executePrepared(trx, plusOne(1))).rows[0].n, 2);
      const { rows } = await sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements`.execute(trx);
      const named = rows.filter((r) => r.statement.includes('::int + 1 AS n'));
      assert.equal(named.length, 1, JSON.stringify(rows));
      assert.match(named[0].name, /^airgift_\d+$/);
    });
    // a statement that fails inside a transaction that rolls back leaves the prepared one usable
    const divide = (d: number) => sql<{ q: number }>`SELECT 10 / ${d}::int AS q`;
    await assert.rejects(
      db.transaction().execute((trx) => executePrepared(trx, divide(0))),
      /division by zero/,
    );
    for (let i = 0; i < 12; i++) {
      assert.equal((await executePrepared(db, divide(5))).rows[0].q, 2);
      assert.equal((await executePrepared(db, plusOne(i))).rows[0].n, i + 1);
    }
  });

  test('DATABASE_PREPARED_STATEMENTS=false (a pooler in transaction mode): the same statements, unnamed', {
    skip: !available,
  }, async () => {
    assert.equal(
      loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false', PUBLIC_URL: 'https://localhost' })
        .databasePreparedStatements,
      false,
    );
    const scratch = await createPostgresDatabase();
    const plain = await openDatabase({ url: scratch.url, preparedStatements: false });
    try {
      await plain.kysely.transaction().execute(async (trx) => {
        const { rows } = await executePrepared(trx, sql<{ n: number }>`SELECT ${41}::int + 1 AS n`);
        assert.equal(rows[0].n, 42);
        const prepared = await sql`SELECT name FROM pg_prepared_statements`.execute(trx);
        assert.deepEqual(prepared.rows, []);
      });
    } finally {
      await plain.close();
      await scratch.drop();
    }
  });

  test('a recorded attempt ends its lease and stores the link token hash: no release statement after it', {
    skip: !available,
  }, async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: 1000 });
    const placed = await client.post('/orders', {
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'Ada',
      recipientEmail: 'ada@example.org',
    });
    assert.equal(placed.status, 200, placed.text);
    const leases = createLeases(server.db.kysely, { owner: 'test-owner', leaseMs: 30_000 });
    const claimed = await leases.claim('messages', 'next_attempt_at', server.clock.now(), 100);
    const message = claimed.find((m) => m.transaction_id === placed.body.transactionId);
    assert.ok(message, 'the order queued its recipient e-mail');
    assert.equal(message.leased_by, 'test-owner');
    assert.equal(await server.runtime.services.messaging.sender.attempt(message), true);
    const row = await withMessagingTables(server.db.kysely)
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', message.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'captured');
    assert.equal(row.attempts, 1);
    assert.equal(row.leased_by, null);
    assert.equal(row.lease_until, null);
    const link = await withMessagingTables(server.db.kysely)
      .selectFrom('redeem_links')
      .selectAll()
      .where('id', '=', message.link_id as number)
      .executeTakeFirstOrThrow();
    assert.ok(link.token_hash, 'the token hash is stored with the first send');
    // a second attempt of the same claimed row finds it recorded: nothing written, its lease its caller's
    assert.equal(await server.runtime.services.messaging.sender.attempt(message), false);
    const again = await withMessagingTables(server.db.kysely)
      .selectFrom('redeem_links')
      .select('token_hash')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    assert.equal(again.token_hash, link.token_hash);
  });
});

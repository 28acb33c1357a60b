import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { deliveryRepository } from '../../src/modules/giftcards/delivery/delivery-repository.ts';
import { messagesRepository } from '../../src/modules/messaging/messages-repository.ts';
import { createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from '../harness/templates.ts';

// Issue 30: the outbox's statements of a batch of messages (the orders they show, their links'
// token hashes stored, their outcomes recorded) find their rows by key, however many orders the
// tables hold. Joined to a batch given as JSON (which PostgreSQL guesses at 100 rows), they were
// planned as reads of every order, link and message in the table once their plans were generic
// (after five runs on a connection): the outbox took longer with every order sold, and a burst of
// 100k orders was still not e-mailed two minutes after it ended. Counted here as the tuples
// PostgreSQL's statistics say these tables had read, on one connection, over batches enough for the
// generic plans. (A plan made while a table held only a few hundred rows may still read it whole
// until its statistics are gathered again: a table that small is read faster whole.)
const FIRST_BURST = 10_000;
const ORDERS = 20_000;
const BATCH = 32;
const BATCHES = 8;
const TABLES = ['giftcard_transactions', 'redeem_links', 'messages'];

/** Rows read (sequentially or through an index) from the outbox's tables so far, by table. */
async function rowsRead(db: Db): Promise<Record<string, number>> {
  // this connection's counts are flushed to the shared statistics when the statement ends
  await sql`SELECT pg_stat_force_next_flush()`.execute(db.kysely);
  const { rows } = await sql<{ relname: string; read: string }>`
    SELECT t.relname, (coalesce(t.seq_tup_read, 0) + coalesce(sum(i.idx_tup_read), 0))::text AS read
    FROM pg_stat_user_tables t LEFT JOIN pg_stat_user_indexes i ON i.relid = t.relid
    WHERE t.relname IN (${sql.join(TABLES)})
    GROUP BY t.relname, t.seq_tup_read`.execute(db.kysely);
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.read)]));
}

type Queued = { id: number; link_id: number; transaction_id: number; attempts: number };

/** Orders sold with a recipient each, and the outbox's statements run on their messages, on `db`. */
async function outboxOn(db: Db) {
  const k = db.kysely;
  const [product] = (
    await sql<{ id: number; brand_id: number }>`SELECT id, brand_id FROM giftcard_products LIMIT 1`.execute(k)
  ).rows;
  const [account] = (
    await sql<{ id: number }>`
      INSERT INTO accounts (name, currency_code, country_code) VALUES ('outbox reads', 'USD', 'US')
      RETURNING id`.execute(k)
  ).rows;
  const delivery = deliveryRepository(k);
  const messages = messagesRepository(k);
  return {
    /** Successful orders with a recipient: the trigger of migration 0020 gives each a link and a message. */
    sell: (n: number) =>
      sql`
        INSERT INTO giftcard_transactions (id, account_id, environment, status, product_id, product_name,
          country_code, brand_id, brand_name, quantity, unit_price, total_price, recipient_currency_code,
          currency_code, sender_unit_price, amount, fee, discount, sms_fee, total_fee, old_balance,
          new_balance, balance_updated_at, pre_ordered, sender_name, recipient_email, created_at, updated_at)
        SELECT nextval('giftcard_transaction_ids'), ${account.id}, 'sandbox', 'SUCCESSFUL', ${product.id},
          'Product', 'US', ${product.brand_id}, 'Brand', 1, 10, 10, 'USD', 'USD', 10, 10, 0, 0, 0, 0, 100, 90,
          now(), false, 'Sender', 'r' || g || '@example.com', now(), now()
        FROM generate_series(1, ${n}) AS g`.execute(k),

    async nextQueued(): Promise<Queued[]> {
      const { rows } = await sql<Queued>`
        SELECT id, link_id, transaction_id, attempts FROM messages WHERE status = 'queued'
        ORDER BY id LIMIT ${BATCH * BATCHES}`.execute(k);
      assert.equal(rows.length, BATCH * BATCHES);
      return rows;
    },

    /** Sends these messages, BATCH at a time, through the outbox's statements; each caller checks its own answer. */
    async sendBatches(queued: Queued[]) {
      for (let b = 0; b < BATCHES; b++) {
        const batch = queued.slice(b * BATCH, (b + 1) * BATCH);
        // each step's calls made at one moment: one statement for the batch (a gathering)
        const orders = await Promise.all(batch.map((m) => delivery.order(Number(m.transaction_id))));
        assert.deepEqual(
          orders.map((o) => o?.id),
          batch.map((m) => Number(m.transaction_id)),
        );
        assert.ok(orders.every((o) => o?.recipientEmail?.endsWith('@example.com')));
        const links = await Promise.all(
          batch.map((m) => delivery.linkToSend(Number(m.link_id), `hash-${m.link_id}`)),
        );
        // each link as it was before its hash was stored (null: the first time)
        links.forEach((l, i) => {
          assert.equal(Number(l?.id), Number(batch[i].link_id));
          assert.equal(Number(l?.transaction_id), Number(batch[i].transaction_id));
          assert.equal(l?.token_hash, null);
        });
        const at = new Date();
        const written = await Promise.all(
          batch.map((m) =>
            messages.record(
              { id: Number(m.id), attempts: m.attempts },
              { status: 'sent', nextAttemptAt: null, error: null, providerId: `p-${m.id}`, at },
            ),
          ),
        );
        assert.ok(written.every(Boolean));
      }
    },

    /** What the batches wrote: links with their hash stored, messages sent. */
    async written() {
      const { rows } = await sql<{ hashed: number; sent: number }>`
        SELECT (SELECT count(*)::int FROM redeem_links WHERE token_hash = 'hash-' || id) AS hashed,
               (SELECT count(*)::int FROM messages WHERE status = 'sent') AS sent`.execute(k);
      return rows[0];
    },
  };
}

test('the outbox reads a batch of messages by key, whatever the tables hold', async (t) => {
  if (!(await postgresAvailable())) return t.skip('PostgreSQL not reachable');
  const database = await createPostgresDatabase();
  // one connection: the prepared statements' plans turn generic there, and its statistics are ours
  const db = await openDatabase({ url: database.url, poolSize: 1 });
  try {
    const outbox = await outboxOn(db);
    // The plans are made (and turn generic) after a first burst of orders, as on a new deployment, then
    // the tables grow under them; then their statistics are gathered again (as autovacuum does
    // once a table has grown by a tenth), which has the plans made anew.
    await outbox.sell(FIRST_BURST);
    await outbox.sendBatches(await outbox.nextQueued());
    await outbox.sell(ORDERS);
    for (const round of ['grown', 'analyzed']) {
      if (round === 'analyzed')
        await sql`ANALYZE giftcard_transactions, redeem_links, messages`.execute(db.kysely);
      const queued = await outbox.nextQueued();
      const before = await rowsRead(db);
      await outbox.sendBatches(queued);
      const after = await rowsRead(db);
      // Each statement reads its batch's rows by key: a few reads per message and table (the key, the
      // rows' versions), never the tables' 30,000 rows, nor a part growing with them.
      const perMessage = Object.fromEntries(
        TABLES.map((table) => [table, (after[table] - before[table]) / (BATCH * BATCHES)]),
      );
      for (const table of TABLES)
        assert.ok(perMessage[table] <= 8, `${round}: ${JSON.stringify(perMessage)}`);
    }
    assert.deepEqual(await outbox.written(), { hashed: 3 * BATCH * BATCHES, sent: 3 * BATCH * BATCHES });
  } finally {
    await db.close();
    await database.drop();
  }
});

test('on the embedded database, the same statements give each message of a batch its own order, link and outcome', async () => {
  const db = fromPGlite(await loadPgliteTemplate(), { guard: false });
  try {
    const outbox = await outboxOn(db);
    await outbox.sell(2 * BATCH * BATCHES);
    await outbox.sendBatches(await outbox.nextQueued());
    assert.deepEqual(await outbox.written(), { hashed: BATCH * BATCHES, sent: BATCH * BATCHES });
  } finally {
    await db.close();
  }
});

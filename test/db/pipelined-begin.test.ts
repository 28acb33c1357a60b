import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import {
  BeginFailed,
  gatePipelinedBegin,
  mayPrecedeBegin,
  PIPELINED_BEGIN,
} from '../../src/db/pipelined-begin.ts';
import { createGroupCommit } from '../../src/modules/group-commit/index.ts';
import { postgresForTests } from '../harness/server.ts';
import { createPostgresDatabase } from '../harness/templates.ts';

// Issue 30: the group commit's BEGIN is not waited for (db/pipelined-begin.ts). Each client here is
// a real node-postgres client in pipeline mode, as the pool's are, with the gate installed over a
// record of the statements that reached the driver.
describe('a BEGIN not waited for (postgres)', async () => {
  const available = await postgresForTests();
  let scratch: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const clients: pg.Client[] = [];
  const HARMLESS = 'SELECT 1 AS one /* pipelined-begin.test */';
  const rowsOf = async (n: number) => {
    const other = await connect();
    return (await other.client.query('SELECT count(*)::int AS c FROM pipelined_probe WHERE n = $1', [n]))
      .rows[0].c;
  };

  async function connect() {
    const client = new pg.Client({ connectionString: scratch.url, pipeline: true } as pg.ClientConfig);
    clients.push(client);
    await client.connect();
    client.on('error', () => undefined);
    const sent: string[] = [];
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, values?: unknown) => {
      sent.push(String(text));
      return query(text, values);
    }) as never;
    gatePipelinedBegin(client as never);
    return { client, sent };
  }

  before(async () => {
    if (!available) return;
    scratch = await createPostgresDatabase();
    const { client } = await connect();
    await client.query('CREATE TABLE pipelined_probe (n int NOT NULL)');
    mayPrecedeBegin(HARMLESS);
  });
  after(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await scratch?.drop();
  });

  test('a harmless statement goes out behind it at once; a write and the COMMIT wait for its answer', {
    skip: !available,
  }, async () => {
    const { client, sent } = await connect();
    const q = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const answers = [
      q(PIPELINED_BEGIN, []),
      q(HARMLESS, []),
      q('INSERT INTO pipelined_probe (n) VALUES ($1)', [1]),
      q('COMMIT', []),
    ];
    // in this turn, before any answer: the BEGIN and the harmless read only
    assert.deepEqual(sent, [PIPELINED_BEGIN, HARMLESS]);
    await Promise.all(answers);
    assert.deepEqual(sent, [
      PIPELINED_BEGIN,
      HARMLESS,
      'INSERT INTO pipelined_probe (n) VALUES ($1)',
      'COMMIT',
    ]);
    assert.equal(await rowsOf(1), 1);
    // answered, it holds nothing more: a statement after it goes out at once
    const later = q('SELECT 2 AS two', []);
    assert.equal(sent.at(-1), 'SELECT 2 AS two');
    await later;
  });

  test('a BEGIN that fails ends its client: what waited is refused unsent, and nothing runs in autocommit', {
    skip: !available,
  }, async () => {
    const { client, sent } = await connect();
    const q = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    // a transaction left aborted: the BEGIN behind it fails (25P02) on a connection that works
    await q('BEGIN', []);
    await assert.rejects(q('SELECT 1 / 0', []), /division by zero/);
    sent.length = 0;
    const begin = q(PIPELINED_BEGIN, []);
    const read = q(HARMLESS, []);
    // sent, these two would end the aborted transaction and commit a row on their own
    const rollback = q('ROLLBACK', []);
    const write = q('INSERT INTO pipelined_probe (n) VALUES ($1)', [2]);
    const heldAndRefused = (e: unknown) =>
      e instanceof BeginFailed && (e.cause as { code?: string }).code === '25P02';
    // each checked from now on: the four answers may come in the same turn, before an await here
    await Promise.all([
      assert.rejects(begin, (e: { code?: string }) => e.code === '25P02'),
      assert.rejects(read, (e: { code?: string }) => e.code === '25P02'),
      assert.rejects(rollback, heldAndRefused),
      assert.rejects(write, heldAndRefused),
    ]);
    assert.deepEqual(sent, [PIPELINED_BEGIN, HARMLESS], 'a statement that waited was sent');
    // and after it: a write is still held and refused, a harmless one refused by the ended client
    await assert.rejects(q('INSERT INTO pipelined_probe (n) VALUES ($1)', [2]), heldAndRefused);
    assert.deepEqual(sent, [PIPELINED_BEGIN, HARMLESS]);
    await assert.rejects(q(HARMLESS, []), /not queryable/);
    assert.equal(await rowsOf(2), 0);
  });

  test('through the group commit: a BEGIN that fails is the answer of an order alone, a batch runs again in transactions of its own, nothing is written twice', {
    skip: !available,
  }, async () => {
    // one connection, left by its last user inside an aborted transaction: its next BEGIN fails
    const db = await openDatabase({ url: scratch.url, poolSize: 1 }, { guard: false });
    try {
      const leaveAborted = () =>
        db.kysely.connection().execute(async (c) => {
          await sql`BEGIN`.execute(c);
          await assert.rejects(sql`SELECT 1 / 0`.execute(c));
        });
      const commits = createGroupCommit(db.kysely, { commitBehind: true, pipelinedBegin: true });
      // an order's one statement: a write, which the gate holds behind the BEGIN
      const order = (n: number) =>
        commits.run({ accountId: 1, environment: 'sandbox' }, (trx) =>
          commits.runLast(trx, sql`INSERT INTO pipelined_probe (n) VALUES (${n})`, 1),
        );

      await leaveAborted();
      await assert.rejects(order(3), (e: { code?: string }) => e.code === '25P02');
      assert.equal(await rowsOf(3), 0);
      // the ended client was dropped: the next order has a connection of its own, and commits
      await order(3);
      assert.equal(await rowsOf(3), 1);

      await leaveAborted();
      const before = commits.stats();
      await Promise.all([order(4), order(4)]);
      assert.equal(commits.stats().fallbacks, before.fallbacks + 1, 'the batch did not fall back');
      assert.equal(await rowsOf(4), 2);
    } finally {
      await db.close();
    }
  });
});

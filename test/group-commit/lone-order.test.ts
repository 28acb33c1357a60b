import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { createGroupCommit } from '../../src/modules/group-commit/index.ts';
import { postgresForTests } from '../harness/server.ts';
import { createPostgresDatabase } from '../harness/templates.ts';
import { until } from '../harness/until.ts';

// A lone order that arrives while a batch of its account runs (modules/group-commit/batcher.ts, two
// batches in flight on PostgreSQL) is not given a transaction of its own: it waits, and either
// joins the orders that arrive after it or is taken by the running batch's runner once that batch
// is done. Either way it is answered: no order is left waiting without a runner.
const available = await postgresForTests();

/** A promise and the function that settles it: a batch's work held until the test lets it go. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The transaction a job's statement ran in (its id: the batch it was part of). */
const txid = async (trx: Kysely<Database>) =>
  (await sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(trx)).rows[0].id;

/** Long enough for a transaction of its own to have begun and run its first statement (~1 ms). */
const aWhile = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('a lone order while a batch of its account runs (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  test('it joins the next orders to arrive, in one transaction', async (t) => {
    const database = await createPostgresDatabase();
    const db = await openDatabase({ url: database.url, poolSize: 4 }, { guard: false });
    // whatever fails, the held batch ends before its connection pool is closed
    let release = async () => {};
    t.after(async () => {
      await release();
      await db.close();
      await database.drop();
    });
    const commits = createGroupCommit(db.kysely, { inFlight: 2 });
    const key = { accountId: 1, environment: 'sandbox' as const };
    const held = gate();
    const started: string[] = [];
    const job = (name: string, wait?: Promise<void>) => async (trx: Kysely<Database>) => {
      started.push(name);
      await wait;
      return txid(trx);
    };
    // a running batch of two, held open
    const first = [commits.run(key, job('a', held.opened)), commits.run(key, job('b', held.opened))];
    release = async () => {
      held.open();
      await Promise.allSettled(first);
    };
    await until('the first batch to start', async () => started.length === 2, 5_000, 5);
    assert.deepEqual(started, ['a', 'b']);
    // one order alone while it runs: not started on a transaction of its own
    const lone = commits.run(key, job('lone'));
    await aWhile();
    assert.deepEqual(started, ['a', 'b'], 'the lone order ran alone beside the running batch');
    // the next order to arrive takes it along
    const next = commits.run(key, job('next'));
    const [loneTx, nextTx] = await Promise.all([lone, next]);
    assert.equal(loneTx, nextTx, 'the lone order and the next one were not one transaction');
    held.open();
    const [aTx, bTx] = await Promise.all(first);
    assert.equal(aTx, bTx);
    assert.notEqual(aTx, loneTx);
    assert.deepEqual(commits.stats().batches, 2);
  });

  test('with no order after it, the running batch takes it once done', async (t) => {
    const database = await createPostgresDatabase();
    const db = await openDatabase({ url: database.url, poolSize: 4 }, { guard: false });
    // whatever fails, the held batch ends before its connection pool is closed
    let release = async () => {};
    t.after(async () => {
      await release();
      await db.close();
      await database.drop();
    });
    const commits = createGroupCommit(db.kysely, { inFlight: 2 });
    const key = { accountId: 1, environment: 'sandbox' as const };
    const held = gate();
    const started: string[] = [];
    const order: string[] = [];
    const job = (name: string, wait?: Promise<void>) => async (trx: Kysely<Database>) => {
      started.push(name);
      await wait;
      order.push(name);
      return txid(trx);
    };
    const first = [commits.run(key, job('a', held.opened)), commits.run(key, job('b', held.opened))];
    release = async () => {
      held.open();
      await Promise.allSettled(first);
    };
    await until('the first batch to start', async () => started.length === 2, 5_000, 5);
    const lone = commits.run(key, job('lone'));
    await aWhile();
    assert.deepEqual(order, [], 'the lone order ran while the batch was held');
    held.open();
    const [aTx] = await Promise.all(first);
    const loneTx = await lone;
    assert.notEqual(loneTx, aTx);
    assert.deepEqual(order, ['a', 'b', 'lone']);
    assert.deepEqual(commits.stats(), { batches: 2, orders: 3, fallbacks: 0, commitsBehind: 0 });
  });
});

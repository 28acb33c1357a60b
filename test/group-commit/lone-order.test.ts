import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
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

/**
 * A group commit on a database of its own (two batches in flight) with a batch of two orders, "a"
 * and "b", running and held open; `run(name)` places another order of the same account. Each order
 * notes when its work starts and when it has finished, and answers its transaction's id. The held
 * batch is let go before the database is closed, whatever the test asserted.
 */
async function withHeldBatch(t: TestContext) {
  const database = await createPostgresDatabase();
  const db = await openDatabase({ url: database.url, poolSize: 4 }, { guard: false });
  const commits = createGroupCommit(db.kysely, { inFlight: 2 });
  const key = { accountId: 1, environment: 'sandbox' as const };
  const held = gate();
  const started: string[] = [];
  const finished: string[] = [];
  const run = (name: string, wait?: Promise<void>) =>
    commits.run(key, async (trx) => {
      started.push(name);
      await wait;
      finished.push(name);
      return txid(trx);
    });
  const first = [run('a', held.opened), run('b', held.opened)];
  t.after(async () => {
    held.open();
    await Promise.allSettled(first);
    await db.close();
    await database.drop();
  });
  await until('the first batch to start', async () => started.length === 2, 5_000, 5);
  return { commits, run, started, finished, first, open: held.open };
}

describe('a lone order while a batch of its account runs (PostgreSQL)', {
  skip: !available && 'PostgreSQL not reachable',
}, () => {
  test('it joins the next orders to arrive, in one transaction', async (t) => {
    const { commits, run, started, first, open } = await withHeldBatch(t);
    assert.deepEqual(started, ['a', 'b']);
    // one order alone while it runs: not started on a transaction of its own
    const lone = run('lone');
    await aWhile();
    assert.deepEqual(started, ['a', 'b'], 'the lone order ran alone beside the running batch');
    // the next order to arrive takes it along
    const next = run('next');
    const [loneTx, nextTx] = await Promise.all([lone, next]);
    assert.equal(loneTx, nextTx, 'the lone order and the next one were not one transaction');
    open();
    const [aTx, bTx] = await Promise.all(first);
    assert.equal(aTx, bTx);
    assert.notEqual(aTx, loneTx);
    assert.deepEqual(commits.stats().batches, 2);
  });

  test('with no order after it, the running batch takes it once done', async (t) => {
    const { commits, run, finished, first, open } = await withHeldBatch(t);
    const lone = run('lone');
    await aWhile();
    assert.deepEqual(finished, [], 'the lone order ran while the batch was held');
    open();
    const [aTx] = await Promise.all(first);
    const loneTx = await lone;
    assert.notEqual(loneTx, aTx);
    assert.deepEqual(finished, ['a', 'b', 'lone']);
    assert.deepEqual(commits.stats(), { batches: 2, orders: 3, fallbacks: 0, commitsBehind: 0 });
  });
});

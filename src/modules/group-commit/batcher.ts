import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';

/**
 * Group commit for the orders of one account (the way TigerBeetle batches transfers). Orders of one
 * account and environment serialise on its balance row anyway; so while one transaction of that
 * account runs, the orders that arrive meanwhile queue here, and the next transaction takes them all
 * (up to `maxBatch`, `ORDER_BATCH_MAX`): one row lock, one commit, many ledger entries. An order that
 * arrives when nothing of its account is running starts after one turn of the event loop
 * (`setImmediate`, so the requests read at the same moment join it), so a quiet account waits for
 * nothing. The rules its callbacks keep are in this module's README ("The callback rules").
 *
 * Each order's work is the same callback it would run in a transaction of its own, and each gets
 * its own result. The orders of a batch run side by side on the transaction's one connection, so the
 * callbacks must not depend on each other's writes (a unique index may catch a clash: the batch then
 * fails and its orders run alone); orders that must see each other carry the same `tag`. If any order
 * of a batch fails (insufficient balance, a daily limit, a used customIdentifier) or the commit does,
 * the batch is rolled back as a whole and every order of it runs again alone, in arrival order: each
 * then gets exactly the answer it would have had alone, and a bad order never fails its batch-mates.
 * The callbacks must do all their database work through the `trx` they are given (they already must:
 * a transaction is one connection, one PGlite session).
 *
 * With `inFlight` above 1 (PostgreSQL: a pool of connections), that many batches of one account run
 * at once, each on its own connection: the next batch's first statements (BEGIN, the ids, the checks
 * that need no lock) are made while the previous one holds the balance row, its debit waits on that
 * row lock inside PostgreSQL and goes on the moment the previous batch commits, instead of after the
 * commit's answer has come back to Node and the next batch has made those statements. Batches
 * still serialise on the row lock, and every check that must see the previous batch's orders runs
 * after the debit took the lock (a new statement, so a new snapshot in READ COMMITTED), as it does
 * between two processes; a used customIdentifier the unique index finds fails the later batch,
 * whose orders then run alone. Orders with one tag never run at the same time, in one batch or in
 * two. PGlite has one connection: one batch at a time there.
 *
 * `inBatch(trx)` is true on the transaction of a batch of two or more orders, from before their work
 * starts on it: the gatherings (gathering.ts) make one statement of its orders' calls there.
 *
 * Invariant kept: balance == sum(entries), since every batch commits or rolls back whole.
 *
 * @example
 * const commits = createGroupCommit(db, { maxBatch: 64, inFlight: 2 });
 * const id = await commits.run({ accountId, environment }, async (trx) => {
 *   const debit = await ledger.debitOrder(trx, { ... });
 *   return insertOrder(trx, debit);
 * });
 */
export interface BatchKey {
  accountId: number;
  environment: Environment;
  /** Orders with one tag never share a batch (say the recipient of a top-up). */
  tag?: string;
}

interface Job {
  work: (trx: Kysely<Database>) => Promise<unknown>;
  tag?: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Most orders in one transaction (`ORDER_BATCH_MAX`, default 64); 1: every order alone. */
  maxBatch?: number;
  /** Batches of one account running at once (default 1; see above). */
  inFlight?: number;
}

export function createGroupCommit(db: Kysely<Database>, options: GroupCommitOptions = {}) {
  const maxBatch = Math.max(1, options.maxBatch ?? 64);
  const inFlight = Math.max(1, options.inFlight ?? 1);
  // the transactions of batches of two or more orders: their statements may be gathered (gathering.ts)
  const batches = new WeakSet<Kysely<Database>>();
  // per account and environment: the orders waiting, and how many batches of it are running
  const lanes = new Map<string, Lane>();
  const stats = { batches: 0, orders: 0, fallbacks: 0 };

  async function alone(job: Job) {
    try {
      job.resolve(await db.transaction().execute(job.work));
    } catch (error) {
      job.reject(error);
    }
  }

  async function together(batch: Job[]) {
    let results: unknown[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        batches.add(trx);
        // All at once: the transaction's one connection runs their statements one after the other
        // (Kysely queues them), each as soon as the previous answered, with no wait for the event loop
        // to come back to each order's code in between.
        const settled = await Promise.allSettled(batch.map((job) => job.work(trx)));
        if (settled.some((s) => s.status === 'rejected')) throw new Error('an order of the batch failed');
        results = settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
      });
    } catch {
      stats.fallbacks++;
      for (const job of batch) await alone(job);
      return;
    }
    batch.forEach((job, i) => {
      job.resolve(results[i]);
    });
  }

  interface Lane {
    queue: Job[];
    running: number;
    /** The tags of the batches running now. */
    busy: Set<string>;
  }

  /**
   * The next orders that may share a transaction: in arrival order, up to `maxBatch`, stopping before
   * the second order with a tag already taken (orders of one batch run side by side, so two top-ups to
   * one number must not, or neither would see the other in its recently-recharged check) and before
   * an order whose tag is in a batch running now (it waits for that batch's commit). Empty when the
   * first order waiting is such an order: the runner of that batch takes it next.
   */
  function takeBatch(lane: Lane): Job[] {
    const tags = new Set<string>();
    let n = 0;
    while (n < lane.queue.length && n < maxBatch) {
      const tag = lane.queue[n].tag;
      if (tag !== undefined) {
        if (tags.has(tag) || lane.busy.has(tag)) break;
        tags.add(tag);
      }
      n++;
    }
    return lane.queue.splice(0, n);
  }

  /** Runs the lane's batches until none is waiting; `lane.running` was counted when it was started. */
  async function drain(key: string, lane: Lane) {
    try {
      while (lane.queue.length > 0) {
        const batch = takeBatch(lane);
        if (batch.length === 0) break;
        const tags = batch.flatMap((job) => (job.tag === undefined ? [] : [job.tag]));
        for (const tag of tags) lane.busy.add(tag);
        stats.batches++;
        stats.orders += batch.length;
        try {
          if (batch.length === 1) await alone(batch[0]);
          else await together(batch);
        } finally {
          for (const tag of tags) lane.busy.delete(tag);
        }
      }
    } finally {
      lane.running--;
      if (lane.running === 0 && lane.queue.length === 0) lanes.delete(key);
    }
  }

  return {
    /** Runs `work` in a transaction, shared with the other orders of `key` that are waiting. */
    run<T>(key: BatchKey, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      const id = `${key.accountId}/${key.environment}`;
      return new Promise<T>((resolve, reject) => {
        const job: Job = { work, tag: key.tag, resolve: resolve as (value: unknown) => void, reject };
        let lane = lanes.get(id);
        if (!lane) {
          lane = { queue: [], running: 0, busy: new Set() };
          lanes.set(id, lane);
        }
        lane.queue.push(job);
        if (lane.running < inFlight) {
          lane.running++;
          // One turn of the event loop first: the other requests already read from their sockets
          // reach this queue before the batch is taken. On PGlite a whole transaction runs in
          // microtasks (no I/O between its statements), so without this turn the first order of each
          // read would run alone before the next request is even parsed.
          setImmediate(() => void drain(id, lane));
        }
      });
    },
    /** True on the transaction of a batch of two or more orders (for `createGathering`). */
    inBatch: (trx: Kysely<Database>): boolean => batches.has(trx),
    /** Batches run, orders in them, and batches that fell back to one transaction per order. */
    stats: () => ({ ...stats }),
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;

import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';

/**
 * Group commit for the orders of one account (the way TigerBeetle batches transfers). Orders of one
 * account and environment serialise on its balance row anyway; so while one transaction of that
 * account runs, the orders that arrive meanwhile queue here, and the next transaction takes them all
 * (up to `maxBatch`): one row lock, one commit, many ledger entries. An order that arrives when
 * nothing of its account is running starts at once, so a quiet account waits for nothing.
 *
 * Each order's work is the same callback it would run in a transaction of its own, and each gets
 * its own result. If any order of a batch fails (insufficient balance, a daily limit, a used
 * customIdentifier) or the commit does, the batch is rolled back as a whole and every order of it
 * runs again alone, in arrival order: each then gets exactly the answer it would have had alone, and
 * a bad order never fails its batch-mates. The callbacks must do all their database work through the
 * `trx` they are given (they already must: a transaction is one connection, one PGlite session).
 *
 * Invariant kept: balance == sum(entries), since every batch commits or rolls back whole.
 *
 * @example
 * const orders = createOrderBatcher(db);
 * const id = await orders.run({ accountId, environment }, async (trx) => {
 *   const debit = await ledger.debitOrder(trx, { ... });
 *   return insertOrder(trx, debit);
 * });
 */
export interface BatchKey {
  accountId: number;
  environment: Environment;
}

interface Job {
  work: (trx: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function createOrderBatcher(db: Kysely<Database>, options: { maxBatch?: number } = {}) {
  const maxBatch = options.maxBatch ?? 64;
  const queues = new Map<string, Job[]>();
  const stats = { batches: 0, orders: 0, fallbacks: 0 };

  async function alone(job: Job) {
    try {
      job.resolve(await db.transaction().execute(job.work));
    } catch (error) {
      job.reject(error);
    }
  }

  async function together(batch: Job[]) {
    const results: unknown[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of batch) results.push(await job.work(trx));
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

  async function drain(key: string, queue: Job[]) {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        stats.batches++;
        stats.orders += batch.length;
        if (batch.length === 1) await alone(batch[0]);
        else await together(batch);
      }
    } finally {
      queues.delete(key);
    }
  }

  return {
    /** Runs `work` in a transaction, shared with the other orders of `key` that are waiting. */
    run<T>(key: BatchKey, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      const id = `${key.accountId}/${key.environment}`;
      return new Promise<T>((resolve, reject) => {
        const job: Job = { work, resolve: resolve as (value: unknown) => void, reject };
        const queue = queues.get(id);
        if (queue) {
          queue.push(job);
          return;
        }
        const fresh = [job];
        queues.set(id, fresh);
        void drain(id, fresh);
      });
    },
    /** Batches run, orders in them, and batches that fell back to one transaction per order. */
    stats: () => ({ ...stats }),
  };
}

export type OrderBatcher = ReturnType<typeof createOrderBatcher>;

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * One statement for a batch's orders instead of one each. The orders of a batch (batcher.ts) run side
 * by side on its one transaction and make the same statements at about the same moment (their ids,
 * then the debit with their rows); each statement after the debit is a round trip made while the
 * account's row lock is held.
 * A gathering collects the calls made on a batch's transaction until the event loop's next turn
 * (`setImmediate`: after every pending microtask), then makes them with `many` (one statement) and gives each call its own result; on any other
 * transaction, or for a lone call, `one` is used. If `many` throws, every call of the gathering gets
 * that error: the batch then rolls back and its orders run alone (batcher.ts), each getting the
 * exact answer `one` gives it. `canShare` sorts the calls into groups that can share a statement:
 * one statement per group, `one` for a call alone in its group.
 *
 * @example
 * const inserts = createGathering({ gathers: ledger.inBatch, one: insertOne, many: insertMany });
 * const row = await inserts.run(trx, newRow);
 */
export function createGathering<I, R>(o: {
  gathers: (trx: Kysely<Database>) => boolean;
  one: (trx: Kysely<Database>, item: I) => Promise<R>;
  many: (trx: Kysely<Database>, items: I[]) => Promise<R[]>;
  canShare?: (first: I, other: I) => boolean;
}) {
  interface Waiting {
    item: I;
    resolve(result: R): void;
    reject(error: unknown): void;
  }
  const gathering = new WeakMap<Kysely<Database>, Waiting[]>();

  /**
   * The calls that may share a statement, in groups: each call joins the first group whose first
   * call it can share with (`canShare`), in arrival order within a group; say a batch of one account
   * with gift card orders and top-ups, whose debits write different rows.
   */
  function groupsOf(waiting: Waiting[]): Waiting[][] {
    if (!o.canShare) return [waiting];
    const groups: Waiting[][] = [];
    for (const w of waiting) {
      const group = groups.find((g) => o.canShare?.(g[0].item, w.item));
      if (group) group.push(w);
      else groups.push([w]);
    }
    return groups;
  }

  async function flush(trx: Kysely<Database>, waiting: Waiting[]) {
    // one group after the other: they share the transaction's one connection
    for (const group of groupsOf(waiting)) {
      if (group.length === 1) {
        await o.one(trx, group[0].item).then(group[0].resolve, group[0].reject);
        continue;
      }
      try {
        const results = await o.many(
          trx,
          group.map((w) => w.item),
        );
        group.forEach((w, i) => {
          w.resolve(results[i]);
        });
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
  }

  return {
    run(trx: Kysely<Database>, item: I): Promise<R> {
      if (!o.gathers(trx)) return o.one(trx, item);
      return new Promise<R>((resolve, reject) => {
        let waiting = gathering.get(trx);
        if (!waiting) {
          const fresh: Waiting[] = [];
          waiting = fresh;
          gathering.set(trx, fresh);
          // after every pending microtask: batch-mates a few awaits behind still join
          setImmediate(() => {
            gathering.delete(trx);
            void flush(trx, fresh);
          });
        }
        waiting.push({ item, resolve, reject });
      });
    },
  };
}

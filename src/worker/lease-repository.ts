import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MessagingTables } from '../modules/messaging/index.ts';

/**
 * Leases on the rows that record background work (the worker's repository: its only SQL). A row is due when its due
 * column (`next_check_at`, `next_attempt_at`) has come and no live lease holds it; `claim` finds due
 * rows and leases them in ONE statement (`FOR UPDATE SKIP LOCKED`: two servers claiming at once never
 * get the same row, and neither waits for the other), so N servers share the work. A lease ends when
 * its job is done (`release`) or when `lease_until` passes: a server killed mid-job holds its rows only
 * that long, then any server takes them over. Times come from the injected clock, so tests move them.
 *
 * @example
 * const leases = createLeases(db, { owner: leaseOwner(), leaseMs: 30_000 });
 * const rows = await leases.claim('giftcard_transactions', 'next_check_at', clock.now(), 100);
 * // ... run each job ...
 * await leases.release('giftcard_transactions', rows.map((r) => r.id));
 */
export type LeasedTable = 'giftcard_transactions' | 'topup_transactions' | 'webhook_deliveries' | 'messages';
type LeasedRows = Database & Pick<MessagingTables, 'messages'>;
export type DueColumn = 'next_check_at' | 'next_attempt_at';

export function createLeases(db: Kysely<Database>, options: { owner: string; leaseMs: number }) {
  const { owner, leaseMs } = options;
  return {
    owner,
    leaseMs,

    /**
     * Leases at most `limit` rows due at `now` (oldest first) to this server; returns them, by id.
     * `dueBy`: only rows that were due by then (earlier than `now`: those that have waited longest).
     */
    async claim<T extends LeasedTable>(
      table: T,
      due: DueColumn,
      now: Date,
      limit: number,
      dueBy: Date = now,
    ): Promise<Selectable<LeasedRows[T]>[]> {
      const until = new Date(now.getTime() + leaseMs);
      const { rows } = await sql<Selectable<LeasedRows[T]>>`
        UPDATE ${sql.table(table)} AS t SET lease_until = ${until}, leased_by = ${owner}
        WHERE t.id IN (
          SELECT id FROM ${sql.table(table)}
          WHERE ${sql.ref(due)} <= ${dueBy} AND (lease_until IS NULL OR lease_until <= ${now})
          ORDER BY ${sql.ref(due)}
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING t.*`.execute(db);
      const id = (row: object) => Number((row as { id: number }).id);
      return rows.sort((a, b) => id(a) - id(b));
    },

    /** Ends this server's leases on `ids` (done, or given back unrun at shutdown). */
    async release(table: LeasedTable, ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await sql`
        UPDATE ${sql.table(table)} SET lease_until = NULL, leased_by = NULL
        WHERE id = ANY(${ids}::bigint[]) AND leased_by = ${owner}`.execute(db);
    },
  };
}

export type Leases = ReturnType<typeof createLeases>;

/** This server's name on its leases: host, pid and a random part (a restarted pid is another owner). */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

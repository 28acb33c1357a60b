import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** How long the oldest due item has waited at `now`, in seconds (0: none due). */
const waitedSeconds = (now: Date, oldest: Date | null) =>
  oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0;

/**
 * The SQL behind `GET /metrics`: orders by product and status, and the background queue (orders and
 * top-ups whose next check is set) with how overdue its oldest item is, and the messages waiting to be
 * sent (the outbox). Read at scrape time only.
 */
export function metricsRepository(db: Kysely<Database>) {
  return {
    async ordersByStatus(): Promise<{ product: string; status: string; n: number }[]> {
      const result = await sql<{ product: string; status: string; n: string }>`
        SELECT 'giftcards' AS product, status, count(*) AS n FROM giftcard_transactions GROUP BY status
        UNION ALL
        SELECT 'topups' AS product, status, count(*) AS n FROM topup_transactions GROUP BY status`.execute(
        db,
      );
      return result.rows.map((r) => ({ product: r.product, status: r.status, n: Number(r.n) }));
    },

    async queue(
      now: Date,
    ): Promise<{ product: string; waiting: number; due: number; oldestDueSeconds: number }[]> {
      const result = await sql<{ product: string; waiting: string; due: string; oldest: Date | null }>`
        SELECT 'giftcards' AS product, count(*) AS waiting,
               count(*) FILTER (WHERE next_check_at <= ${now}) AS due,
               min(next_check_at) FILTER (WHERE next_check_at <= ${now}) AS oldest
        FROM giftcard_transactions WHERE next_check_at IS NOT NULL
        UNION ALL
        SELECT 'topups', count(*), count(*) FILTER (WHERE next_check_at <= ${now}),
               min(next_check_at) FILTER (WHERE next_check_at <= ${now})
        FROM topup_transactions WHERE next_check_at IS NOT NULL`.execute(db);
      return result.rows.map((r) => ({
        product: r.product,
        waiting: Number(r.waiting),
        due: Number(r.due),
        oldestDueSeconds: waitedSeconds(now, r.oldest),
      }));
    },

    /** Messages (e-mail, SMS) still to be sent, by channel: the partial index messages_due holds them. */
    async outbox(now: Date): Promise<{ channel: string; queued: number; oldestDueSeconds: number }[]> {
      const result = await sql<{ channel: string; queued: string; oldest: Date | null }>`
        SELECT c.channel, count(m.id) AS queued, min(m.next_attempt_at) FILTER (WHERE m.next_attempt_at <= ${now}) AS oldest
        FROM (VALUES ('email'), ('sms')) AS c (channel)
        LEFT JOIN messages m ON m.channel = c.channel AND m.next_attempt_at IS NOT NULL
        GROUP BY c.channel ORDER BY c.channel`.execute(db);
      return result.rows.map((r) => ({
        channel: r.channel,
        queued: Number(r.queued),
        oldestDueSeconds: waitedSeconds(now, r.oldest),
      }));
    },
  };
}

export type MetricsRepository = ReturnType<typeof metricsRepository>;

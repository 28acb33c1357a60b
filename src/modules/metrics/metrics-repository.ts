import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The SQL behind `GET /metrics`: orders by product and status, and the background queue (orders and
 * top-ups whose next check is set) with how overdue its oldest item is. Read at scrape time only.
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
        oldestDueSeconds: r.oldest ? Math.max(0, (now.getTime() - new Date(r.oldest).getTime()) / 1000) : 0,
      }));
    },
  };
}

export type MetricsRepository = ReturnType<typeof metricsRepository>;

import { type Kysely, sql } from 'kysely';
import type { Database, Environment } from '../../../db/schema.ts';

/**
 * The console's reads across accounts, which the per-account services do not offer: account search,
 * and orders and revenue per day per product. Read-only. The transaction search is
 * transaction-search-repository.ts.
 */
export function consoleRepository(db: Kysely<Database>) {
  return {
    /** Accounts whose name contains `search` (case-insensitive) or whose id is `search`; newest first. */
    async searchAccounts(search: string | undefined, page: { limit: number; offset: number }) {
      let q = db
        .selectFrom('accounts')
        .select([
          'id',
          'name',
          'currency_code',
          'country_code',
          'status',
          'daily_count_limit',
          'daily_amount_limit',
          'shapes',
          'created_at',
        ]);
      if (search) {
        const id = /^\d{1,15}$/.test(search) ? Number(search) : null;
        q = q.where((eb) =>
          eb.or([
            sql<boolean>`strpos(lower(name), ${search.toLowerCase()}) > 0`,
            ...(id === null ? [] : [eb('id', '=', id)]),
          ]),
        );
      }
      return q.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    },

    /**
     * Orders (not refunded) and revenue per UTC day, product and currency since `from`, in each
     * account's currency (the console service converts it to the reporting currency).
     */
    async ordersPerDay(environment: Environment, from: Date) {
      const result = await sql<{
        day: string;
        product: string;
        currency_code: string;
        orders: string;
        revenue: string;
      }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, 'giftcards' AS product, currency_code,
               count(*)::text AS orders, sum(amount)::text AS revenue
          FROM giftcard_transactions
         WHERE environment = ${environment} AND created_at >= ${from} AND status NOT IN ('FAILED', 'REFUNDED')
         GROUP BY 1, 3
        UNION ALL
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'topups', requested_currency_code,
               count(*)::text, sum(cost)::text
          FROM topup_transactions
         WHERE environment = ${environment} AND created_at >= ${from} AND status <> 'REFUNDED'
         GROUP BY 1, 3
        ORDER BY 1, 2, 3`.execute(db);
      return result.rows;
    },
  };
}

export type ConsoleRepository = ReturnType<typeof consoleRepository>;

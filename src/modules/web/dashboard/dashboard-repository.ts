import { type Kysely, sql } from 'kysely';
import type { Database, Environment } from '../../../db/schema.ts';
import { withWebTables } from '../users/web-tables.ts';

/** SQL the dashboard needs besides the services it reuses: spend per day and the record of code reveals. */
export function dashboardRepository(appDb: Kysely<Database>) {
  const db = withWebTables(appDb);
  return {
    /**
     * Net spend per UTC day since `from`: order debits less refunds, positive numbers, as decimal text.
     * Days without any entry are absent.
     */
    async spendPerDay(accountId: number, environment: Environment, from: Date) {
      const rows = await db
        .selectFrom('ledger_entries')
        .select([
          sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('day'),
          sql<string>`(-sum(amount))::text`.as('spend'),
        ])
        .where('account_id', '=', accountId)
        .where('environment', '=', environment)
        .where('kind', 'in', ['ORDER_DEBIT', 'REFUND'])
        .where('created_at', '>=', from)
        .groupBy(sql`1`)
        .orderBy(sql`1`)
        .execute();
      return rows;
    },

    async recordReveal(r: {
      userId: number;
      accountId: number;
      environment: Environment;
      transactionId: number;
      ip: string | null;
      at: Date;
    }) {
      await db
        .insertInto('web_code_reveals')
        .values({
          user_id: r.userId,
          account_id: r.accountId,
          environment: r.environment,
          transaction_id: r.transactionId,
          ip: r.ip,
          at: r.at,
        })
        .execute();
    },

    async revealsOf(accountId: number, transactionId: number) {
      return db
        .selectFrom('web_code_reveals')
        .innerJoin('web_users', 'web_users.id', 'web_code_reveals.user_id')
        .select(['web_users.email', 'web_code_reveals.at', 'web_code_reveals.ip'])
        .where('web_code_reveals.account_id', '=', accountId)
        .where('web_code_reveals.transaction_id', '=', transactionId)
        .orderBy('web_code_reveals.at', 'desc')
        .execute();
    },
  };
}

export type DashboardRepository = ReturnType<typeof dashboardRepository>;

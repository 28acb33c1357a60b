import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { withMessagingTables } from '../../messaging/index.ts';

/** The SQL of the platform's own e-mail (web-messages.ts): a low balance's facts, the reset limit. */
export function webMessagesRepository(db: Kysely<Database>) {
  return {
    /** The ledger entry that crossed the threshold, with its account's name and the threshold. */
    async balanceFacts(entryId: number) {
      const { rows } = await sql<{
        balance_after: string;
        currency_code: string;
        threshold: string | null;
        name: string;
      }>`
        SELECT e.balance_after, e.currency_code, t.threshold, a.name
        FROM ledger_entries e
        JOIN accounts a ON a.id = e.account_id
        LEFT JOIN webhook_balance_thresholds t ON t.account_id = e.account_id AND t.environment = e.environment
        WHERE e.id = ${entryId}`.execute(db);
      return rows[0];
    },

    /** Messages of `kind` to `to` (any case) queued since `since`. */
    async sentSince(kind: string, to: string, since: Date): Promise<number> {
      const row = await withMessagingTables(db)
        .selectFrom('messages')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('kind', '=', kind)
        .where(sql`lower(recipient)`, '=', to.toLowerCase())
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

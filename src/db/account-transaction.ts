import type { SelectQueryBuilder } from 'kysely';
import type { Database, Environment } from './schema.ts';

/** The products' transaction tables: each row is one account's, in one environment. */
type TransactionTable = 'giftcard_transactions' | 'topup_transactions';

/**
 * One transaction as its account sees it: `id`, only if it is the account's and of the environment
 * its credentials are for (another account's, or the other environment's, is not found). Both
 * products look a transaction up through here, so neither can leave half of that check out.
 *
 * @example
 * accountTransaction(db.selectFrom('topup_transactions').selectAll(), accountId, 'live', id)
 */
export function accountTransaction<Row>(
  query: SelectQueryBuilder<Database, TransactionTable, Row>,
  accountId: number,
  environment: Environment,
  id: number,
): Promise<Row | undefined> {
  return query
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('environment', '=', environment)
    .executeTakeFirst();
}

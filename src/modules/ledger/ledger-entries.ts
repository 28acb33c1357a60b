import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';

/**
 * The entries of one balance (account, environment) as a `LedgerEntry`, for the caller to order and
 * page: the admin API's pages (newest first), a funding statement's (keyset, by id). One column list,
 * so every reader of the entries shows the same fields under the same names.
 */
export function entriesOf(db: Kysely<Database>, accountId: number, environment: Environment) {
  return db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'kind',
      'amount',
      'balance_after as balanceAfter',
      'currency_code as currencyCode',
      'reason',
      'product',
      'transaction_id as transactionId',
      'created_at as createdAt',
    ])
    .where('account_id', '=', accountId)
    .where('environment', '=', environment);
}

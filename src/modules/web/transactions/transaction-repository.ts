import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../../db/schema.ts';

/** What a transaction's page reads that no service offers: the ledger entries that name it. */
export function transactionRepository(db: Kysely<Database>) {
  return {
    /**
     * The entries of one transaction of one product, oldest first: its ORDER_DEBIT and its REFUNDs
     * (the only kinds that name a transaction). One query per kind, so each reads its own partial
     * index on (product, transaction_id) (migration 0002), whatever the size of the account's ledger.
     */
    async ledgerEntriesOf(
      accountId: number,
      environment: Environment,
      product: 'giftcards' | 'topups',
      transactionId: number,
    ) {
      const ofKind = (kind: 'ORDER_DEBIT' | 'REFUND') =>
        db
          .selectFrom('ledger_entries')
          .select(['id', 'kind', 'amount', 'balance_after', 'currency_code', 'reason', 'created_at'])
          .where('kind', '=', kind)
          .where('product', '=', product)
          .where('transaction_id', '=', transactionId)
          .where('account_id', '=', accountId)
          .where('environment', '=', environment);
      const rows = await ofKind('ORDER_DEBIT').unionAll(ofKind('REFUND')).execute();
      return rows.sort((a, b) => Number(a.id) - Number(b.id));
    },
  };
}

export type TransactionRepository = ReturnType<typeof transactionRepository>;

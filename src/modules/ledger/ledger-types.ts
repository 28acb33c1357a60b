import type { Kysely, RawBuilder } from 'kysely';
import type { Database, Environment, LedgerKind } from '../../db/schema.ts';
import type { Dec } from '../../lib/money.ts';

/** The ledger's shapes, apart from its code so that ledger.ts and batch-debits.ts both use them. */
export interface Posting {
  accountId: number;
  environment: Environment;
  kind: LedgerKind;
  /** Signed, in the account currency, already rounded to its minor unit. */
  amount: Dec;
  reason?: string | null;
  product?: 'giftcards' | 'topups' | null;
  transactionId?: number | null;
}

export interface OrderDebit {
  accountId: number;
  environment: Environment;
  /** Positive: what the order costs, rounded to the account currency's minor unit. */
  amount: Dec;
  product: 'giftcards' | 'topups';
  transactionId: number;
  reason?: string;
  /** The account's daily limits (null = none). */
  limits?: { count: number | null; amount: Dec | null };
}

/**
 * A product's row writer: how its orders' own rows (a gift card order and its cards, a top-up) are written
 * with their debits, so that a batch's debits and rows are ONE statement: one round trip less while
 * the account's balance row is locked. Registered once per product (`ledger.registerRowWriter`),
 * which gives that product's debit: `(trx, debit, rows: T)`. The rules it keeps are those of every
 * group commit callback (modules/group-commit/README.md).
 *
 * @example
 * const debitWithRows = ledger.registerRowWriter(ordersRowWriter);
 * const posted = await debitWithRows(trx, { accountId, environment, amount, ... }, newRows);
 */
export interface RowWriter<T> {
  /**
   * An order posted alone (ledger.ts `debitOne`): its rows written after its debit, with its result.
   * Without it, `many` of that one order is written by the debit's own statement (one round trip
   * instead of one per table); a writer whose rows have checks of their own that must answer with
   * their own error (top-ups' recent recharge) keeps `one`.
   */
  one?(trx: Kysely<Database>, rows: T, debit: PostingResult): Promise<void>;
  /**
   * The further data-modifying CTEs of a debit statement (a batch's, batch-debits.ts; or, for a
   * writer without `one`, an order's alone), starting with a comma, that write the rows of `items`.
   * They read the balances from the statement's `entry` CTE (`transaction_id`, `product`, `amount`
   * (negative), `balance_after`, one row per order posted) and must write nothing for an order
   * without one there (a refused debit writes nothing at all).
   */
  many(items: T[], at: Date): RawBuilder<unknown>;
}

export interface PostingResult {
  entryId: number;
  oldBalance: Dec;
  newBalance: Dec;
  currencyCode: string;
  at: Date;
}

export interface BalanceView {
  balance: Dec;
  currencyCode: string;
  updatedAt: Date;
}

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: string;
  balanceAfter: string;
  currencyCode: string;
  reason: string | null;
  product: string | null;
  transactionId: number | null;
  createdAt: Date;
}

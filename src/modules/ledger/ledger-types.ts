import type { Environment, LedgerKind } from '../../db/schema.ts';
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

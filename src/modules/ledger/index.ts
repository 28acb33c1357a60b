/** The ledger module: balances and their append-only entries. See ledger.ts for the invariants. */

export { BALANCE_CHANNEL, type BalanceCache, createBalanceCache } from './balance-cache.ts';
export { createLedger, type Ledger } from './ledger.ts';
export { entriesOf } from './ledger-entries.ts';
export type { BalanceView, LedgerEntry, Posting, PostingResult, RowWriter } from './ledger-types.ts';

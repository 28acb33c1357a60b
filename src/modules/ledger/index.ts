/** The ledger module: balances and their append-only entries. See ledger.ts for the invariants. */

export { createGathering } from './gathering.ts';
export {
  type BalanceView,
  createLedger,
  type Ledger,
  type LedgerEntry,
  type Posting,
  type PostingResult,
} from './ledger.ts';

import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The tables of migration 0024 as Kysely sees them, beside the module that alone reads and writes them. */
type WrittenAt = ColumnType<Date, Date, never>;
type MaybeStamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export type TransferStatus = 'announced' | 'confirmed' | 'rejected';

export interface BankDetailsTable {
  currency_code: string;
  account_holder: string;
  account_number: string;
  bic: string | null;
  bank_name: string;
  instructions: string | null;
  updated_at: Date;
}

export interface FundingTransfersTable {
  id: Generated<number>;
  account_id: number;
  currency_code: string;
  amount: ColumnType<string, string, never>;
  /** a date (YYYY-MM-DD), read as text */
  transfer_date: ColumnType<string, string, never>;
  reference: string;
  payer_reference: string | null;
  status: ColumnType<TransferStatus, TransferStatus | undefined, TransferStatus>;
  announced_by: number | null;
  created_at: WrittenAt;
  decided_by: string | null;
  decided_at: MaybeStamp;
  reject_reason: string | null;
  ledger_entry_id: number | null;
}

export type FundingTables = { bank_details: BankDetailsTable; funding_transfers: FundingTransfersTable };

/** The app's Kysely seen with the funding tables too (the same connection, no copy). */
export function withFundingTables(db: Kysely<Database>): Kysely<Database & FundingTables> {
  return db.withTables<FundingTables>();
}

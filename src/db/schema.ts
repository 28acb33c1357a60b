import type { ColumnType, Generated } from 'kysely';

/**
 * The database as Kysely sees it. The SQL in `migrations/` is the source of truth; this mirrors it.
 * `numeric` columns are read as strings (exact decimals) and written from `Decimal#toFixed()`.
 */
type Numeric = ColumnType<string, string, string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type Environment = 'live' | 'sandbox';
export type LedgerKind = 'FUNDING' | 'ADJUSTMENT' | 'ORDER_DEBIT' | 'REFUND';

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  currency_code: string;
  country_code: string;
  status: 'ACTIVE' | 'INACTIVE';
  daily_count_limit: number | null;
  daily_amount_limit: Numeric | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CredentialsTable {
  client_id: string;
  account_id: number;
  environment: Environment;
  secret_hash: string;
  scopes: string[];
  revoked_at: Date | null;
  created_at: CreatedAt;
}

export interface BalancesTable {
  account_id: number;
  environment: Environment;
  currency_code: string;
  balance: Numeric;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  kind: LedgerKind;
  amount: Numeric;
  balance_after: Numeric;
  currency_code: string;
  reason: string | null;
  product: 'giftcards' | 'topups' | null;
  transaction_id: number | null;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface FxRatesTable {
  currency_code: string;
  units_per_usd: Numeric;
  as_of: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface Database {
  fx_rates: FxRatesTable;
  accounts: AccountsTable;
  credentials: CredentialsTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
}

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
  /** Which shapes the account's gift card answers take (migration 0019). */
  shapes: Generated<AccountShapes>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** 'documented': the gift card spec's shapes; 'service': the live service's (docs/compatibility.md). */
export type AccountShapes = 'documented' | 'service';

export interface CredentialsTable {
  client_id: string;
  account_id: number;
  environment: Environment;
  secret_hash: string;
  scopes: string[];
  revoked_at: Date | null;
  created_at: CreatedAt;
  /** When a token was last issued for it (migration 0013). */
  last_used_at: ColumnType<Date | null, Date | undefined, Date>;
}

export interface BalancesTable {
  account_id: number;
  environment: Environment;
  currency_code: string;
  balance: Numeric;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  /** Raised by a trigger at every change of the row (migration 0016): the balance cache's order. */
  version: Generated<number>;
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
  giftcard_categories: GiftcardCategoriesTable;
  giftcard_brands: GiftcardBrandsTable;
  giftcard_products: GiftcardProductsTable;
  giftcard_denominations: GiftcardDenominationsTable;
  giftcard_transactions: GiftcardTransactionsTable;
  giftcard_cards: GiftcardCardsTable;
  fx_rates: FxRatesTable;
  accounts: AccountsTable;
  credentials: CredentialsTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  topup_transactions: TopupTransactionsTable;
  change_versions: ChangeVersionsTable;
  daily_order_usage: DailyOrderUsageTable;
  giftcard_product_providers: GiftcardProductProvidersTable;
  giftcard_stock: GiftcardStockTable;
  giftcard_stock_orders: GiftcardStockOrdersTable;
  upstreams: UpstreamsTable;
  upstream_calls: UpstreamCallsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_balance_thresholds: WebhookBalanceThresholdsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  live_catalogues: LiveCataloguesTable;
  topup_operator_statuses: TopupOperatorStatusesTable;
  key_checks: KeyChecksTable;
}

// What each key was when data was first protected with it (migration 0018, db/installation.ts).
export interface KeyChecksTable {
  name: string;
  check_value: string;
  created_at: Generated<Date>;
}

// Upstream providers (migration 0009, modules/upstream/).
export type UpstreamProduct = 'giftcards' | 'topups';

export interface UpstreamsTable {
  product: UpstreamProduct;
  base_url: string;
  auth_url: string;
  client_id: string;
  /** sealed (lib/sealed-text.ts) */
  client_secret: string;
  ca_pem: string | null;
  margin_percent: Numeric;
  last_error: string | null;
  last_error_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_success_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  insufficient_balance_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_sync_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export type UpstreamCallState = 'unknown' | 'placed' | 'final' | 'refused';

export interface UpstreamCallsTable {
  product: UpstreamProduct;
  transaction_id: number;
  custom_identifier: string;
  upstream_transaction_id: number | null;
  state: UpstreamCallState;
  upstream_status: string | null;
  attempts: number;
  last_error: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

// Webhooks (migration 0010, modules/webhooks/).
export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  url: string;
  events: string[];
  secret_sealed: string;
  created_at: ColumnType<Date, Date | string, never>;
  failing_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  disabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  disabled_reason: string | null;
  removed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WebhookBalanceThresholdsTable {
  account_id: number;
  environment: Environment;
  threshold: Numeric;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  type: string;
  subject_id: number;
  created_at: ColumnType<Date, Date | string, never>;
}

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  endpoint_id: number;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string, never>;
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  leased_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempted_at: ColumnType<Date, Date | string, never>;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

// Code stock (migration 0008, modules/giftcards/stock/).
export interface GiftcardProductProvidersTable {
  product_id: number;
  provider: 'stock' | 'upstream';
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface GiftcardStockTable {
  id: Generated<number>;
  product_id: number;
  face_value: Numeric;
  card_number: string;
  pin_code: string;
  card_number_hmac: string;
  expires_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  imported_at: ColumnType<Date, Date | string, never>;
  transaction_id: number | null;
  sold_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface GiftcardStockOrdersTable {
  transaction_id: number;
  product_id: number;
  face_value: Numeric;
  quantity: number;
  created_at: ColumnType<Date, Date | string, never>;
  filled_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

// Per-day usage of the daily limits (migration 0006), written by the ledger's order debit.
export interface DailyOrderUsageTable {
  account_id: number;
  environment: Environment;
  day: string;
  order_count: number;
  order_amount: string;
}

// Counters of shared in-memory state (migration 0005, src/lib/change-versions.ts).
export interface ChangeVersionsTable {
  topic: string;
  version: Generated<number>;
  changed_at: Generated<Date>;
}

// Gift cards (migration 0003).
export type GiftcardStatus = 'PENDING' | 'PROCESSING' | 'SUCCESSFUL' | 'FAILED' | 'REFUNDED';

export interface GiftcardCategoriesTable {
  id: number;
  name: string;
}

export interface GiftcardBrandsTable {
  id: number;
  name: string;
  category_id: number;
  redeem_concise: string;
  redeem_verbose: string;
  logo_url: string;
}

export interface GiftcardProductsTable {
  id: number;
  name: string;
  brand_id: number;
  category_id: number;
  country_code: string;
  global: boolean;
  supports_pre_order: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  denomination_type: 'FIXED' | 'RANGE';
  recipient_currency_code: string;
  min_recipient_denomination: Numeric | null;
  max_recipient_denomination: Numeric | null;
  sender_fee: Numeric;
  sender_fee_percentage: Numeric;
  discount_percentage: Numeric;
  user_id_required: boolean;
  logo_urls: string[];
  redeem_concise: string | null;
  redeem_verbose: string | null;
}

export interface GiftcardDenominationsTable {
  product_id: number;
  amount: Numeric;
}

export interface GiftcardTransactionsTable {
  id: number;
  account_id: number;
  environment: Environment;
  status: GiftcardStatus;
  product_id: number;
  product_name: string;
  country_code: string;
  brand_id: number;
  brand_name: string;
  quantity: number;
  unit_price: Numeric;
  total_price: Numeric;
  recipient_currency_code: string;
  currency_code: string;
  sender_unit_price: Numeric;
  amount: Numeric;
  fee: Numeric;
  discount: Numeric;
  sms_fee: Numeric;
  total_fee: Numeric;
  old_balance: Numeric;
  new_balance: Numeric;
  balance_updated_at: ColumnType<Date, Date | string, Date | string>;
  custom_identifier: string | null;
  pre_ordered: boolean;
  sender_name: string;
  recipient_email: string | null;
  recipient_phone: string | null;
  recipient_phone_country: string | null;
  user_id: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  next_check_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  leased_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface GiftcardCardsTable {
  transaction_id: number;
  position: number;
  card_number: string;
  pin_code: string;
}

// Top-ups (migration 0004).
export type TopupStatus = 'PROCESSING' | 'SUCCESSFUL' | 'REFUNDED';

export interface TopupTransactionsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  status: TopupStatus;
  operator_id: number;
  operator_name: string;
  country_code: string;
  recipient_phone: string | null;
  recipient_email: string | null;
  sender_phone: string | null;
  custom_identifier: string | null;
  requested_amount: Numeric;
  requested_currency_code: string;
  delivered_amount: Numeric;
  delivered_currency_code: string;
  discount: Numeric;
  cost: Numeric;
  old_balance: Numeric;
  new_balance: Numeric;
  balance_updated_at: ColumnType<Date, Date | string, Date | string>;
  operator_transaction_id: string | null;
  pin_detail: ColumnType<Record<string, string | null> | null, string | null, string | null>;
  failure_reason: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  next_check_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  leased_by: ColumnType<string | null, string | null | undefined, string | null>;
}

// The live catalogue synced from an upstream (migration 0011, modules/catalog-sync/).
export interface LiveCataloguesTable {
  product: UpstreamProduct;
  upstream_url: string;
  margin_percent: Numeric;
  /** jsonb: a gift card catalog file, or the top-up operator snapshot */
  document: ColumnType<unknown, string, string>;
  counts: ColumnType<Record<string, number>, string, string>;
  synced_at: ColumnType<Date, Date | string, Date | string>;
}

// The operator's status choice per top-up operator (migration 0014, topups/catalog/operator-statuses.ts).
export interface TopupOperatorStatusesTable {
  operator_id: number;
  status: 'ACTIVE' | 'INACTIVE';
  changed_at: Date;
}

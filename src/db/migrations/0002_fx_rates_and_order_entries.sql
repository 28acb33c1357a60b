-- FX: one rate per currency against USD (units of the currency per 1 USD); any pair's rate is the
-- quotient of two rows. Seeded from data/seed/fx-rates.json on an empty table; changed by the
-- admin API, every change keeping its as-of time.
CREATE TABLE fx_rates (
  currency_code char(3)        PRIMARY KEY,
  units_per_usd numeric(30, 12) NOT NULL CHECK (units_per_usd > 0),
  as_of         timestamptz     NOT NULL,
  updated_at    timestamptz     NOT NULL DEFAULT now()
);

-- An order is debited at most once and refunded at most once, whatever retries or workers do.
CREATE UNIQUE INDEX ledger_one_debit_per_order ON ledger_entries (product, transaction_id) WHERE kind = 'ORDER_DEBIT';
CREATE UNIQUE INDEX ledger_one_refund_per_order ON ledger_entries (product, transaction_id) WHERE kind = 'REFUND';
-- Daily limits count today's order debits of an account.
CREATE INDEX ledger_order_debits_by_day ON ledger_entries (account_id, environment, created_at) WHERE kind = 'ORDER_DEBIT';

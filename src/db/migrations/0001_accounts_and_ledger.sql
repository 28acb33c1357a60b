-- Accounts, their credentials, and the ledger that is the only writer of balances.
--
-- Invariants the database itself enforces:
--   * a balance is never negative (CHECK);
--   * a ledger entry is never changed or deleted (trigger);
--   * every entry records the balance it left behind, so balance == sum(entries) can be audited
--     entry by entry, not only in total.

CREATE TABLE accounts (
  id                 bigserial PRIMARY KEY,
  name               text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  currency_code      char(3)     NOT NULL,
  country_code       char(2)     NOT NULL,
  status             text        NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
  daily_count_limit  integer     CHECK (daily_count_limit >= 0),
  daily_amount_limit numeric(24, 6) CHECK (daily_amount_limit >= 0),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE credentials (
  client_id    text        PRIMARY KEY,
  account_id   bigint      NOT NULL REFERENCES accounts (id),
  environment  text        NOT NULL CHECK (environment IN ('live', 'sandbox')),
  -- scrypt hash of the client secret; the secret itself is shown once and never stored.
  secret_hash  text        NOT NULL,
  scopes       text[]      NOT NULL,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credentials_account_idx ON credentials (account_id);

CREATE TABLE balances (
  account_id    bigint         NOT NULL REFERENCES accounts (id),
  environment   text           NOT NULL CHECK (environment IN ('live', 'sandbox')),
  currency_code char(3)        NOT NULL,
  balance       numeric(24, 6) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at    timestamptz    NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment)
);

CREATE TABLE ledger_entries (
  id             bigserial      PRIMARY KEY,
  account_id     bigint         NOT NULL,
  environment    text           NOT NULL,
  kind           text           NOT NULL CHECK (kind IN ('FUNDING', 'ADJUSTMENT', 'ORDER_DEBIT', 'REFUND')),
  amount         numeric(24, 6) NOT NULL CHECK (amount <> 0),
  balance_after  numeric(24, 6) NOT NULL CHECK (balance_after >= 0),
  currency_code  char(3)        NOT NULL,
  reason         text,
  product        text           CHECK (product IN ('giftcards', 'topups')),
  transaction_id bigint,
  created_at     timestamptz    NOT NULL DEFAULT now(),
  FOREIGN KEY (account_id, environment) REFERENCES balances (account_id, environment),
  -- funding can only add, an order debit only take away, a refund only give back.
  CHECK ((kind = 'FUNDING' AND amount > 0) OR (kind = 'ORDER_DEBIT' AND amount < 0)
      OR (kind = 'REFUND' AND amount > 0) OR kind = 'ADJUSTMENT'),
  CHECK ((kind IN ('ORDER_DEBIT', 'REFUND')) = (transaction_id IS NOT NULL AND product IS NOT NULL))
);
CREATE INDEX ledger_entries_balance_idx ON ledger_entries (account_id, environment, id);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (product, transaction_id) WHERE transaction_id IS NOT NULL;

CREATE FUNCTION ledger_entries_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_are_append_only();

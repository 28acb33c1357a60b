-- Top-up transactions. Operators, their number ranges and promotions are versioned data files
-- (data/operators/*.json) served from memory, so only the orders live here.
--
-- Invariants the database enforces:
--   * a customIdentifier is used once per account and environment (unique index, so two concurrent
--     requests with one value give exactly one transaction);
--   * the status is one of the three of the state machine (topup-states.ts holds the transitions);
--   * a PROCESSING top-up has a next_check_at, so the worker finds it after any restart.

CREATE TABLE topup_transactions (
  id                          bigserial      PRIMARY KEY,
  account_id                  bigint         NOT NULL REFERENCES accounts (id),
  environment                 text           NOT NULL CHECK (environment IN ('live', 'sandbox')),
  status                      text           NOT NULL CHECK (status IN ('PROCESSING', 'SUCCESSFUL', 'REFUNDED')),
  operator_id                 integer        NOT NULL,
  operator_name               text           NOT NULL,
  country_code                char(2)        NOT NULL,
  -- the recipient as E.164 digits without '+' (phone operators) or the e-mail (Nauta)
  recipient_phone             text,
  recipient_email             text,
  sender_phone                text,
  custom_identifier           text           CHECK (length(custom_identifier) <= 150),
  requested_amount            numeric(24, 6) NOT NULL CHECK (requested_amount > 0),
  requested_currency_code     char(3)        NOT NULL,
  delivered_amount            numeric(24, 6) NOT NULL CHECK (delivered_amount > 0),
  delivered_currency_code     char(3)        NOT NULL,
  discount                    numeric(24, 6) NOT NULL CHECK (discount >= 0),
  cost                        numeric(24, 6) NOT NULL CHECK (cost > 0),
  old_balance                 numeric(24, 6) NOT NULL,
  new_balance                 numeric(24, 6) NOT NULL,
  balance_updated_at          timestamptz    NOT NULL,
  operator_transaction_id     text,
  pin_detail                  jsonb,
  failure_reason              text,
  created_at                  timestamptz    NOT NULL,
  updated_at                  timestamptz    NOT NULL,
  next_check_at               timestamptz,
  CHECK ((status = 'PROCESSING') = (next_check_at IS NOT NULL)),
  CHECK (recipient_phone IS NOT NULL OR recipient_email IS NOT NULL)
);

CREATE UNIQUE INDEX topup_custom_identifier_unique
  ON topup_transactions (account_id, environment, custom_identifier)
  WHERE custom_identifier IS NOT NULL;
-- PHONE_RECENTLY_RECHARGED: the latest top-up of one number by one account in one environment.
CREATE INDEX topup_recent_by_recipient
  ON topup_transactions (account_id, environment, recipient_phone, created_at DESC);
-- Reports: newest first per account, and the usual filters.
CREATE INDEX topup_reports_by_date ON topup_transactions (account_id, environment, created_at DESC, id DESC);
CREATE INDEX topup_reports_by_operator ON topup_transactions (account_id, environment, operator_id);
CREATE INDEX topup_reports_by_country ON topup_transactions (account_id, environment, country_code);
-- The worker's queue: PROCESSING top-ups due for a check.
CREATE INDEX topup_due ON topup_transactions (next_check_at) WHERE next_check_at IS NOT NULL;

-- Issue 28: funding by bank transfer. The operator sets the bank details customers pay into, one set
-- per currency; a customer announces a transfer (amount, date, their own reference) against their
-- account's reference (AG-<accountId>-<check>, modules/funding/funding-reference.ts); the operator
-- confirms it (one FUNDING ledger entry, written by the ledger in the same transaction) or rejects it
-- with a reason. Funding by transfer is for the live balance only: the sandbox is funded as before.
CREATE TABLE bank_details (
  currency_code  char(3)     PRIMARY KEY,
  account_holder text        NOT NULL CHECK (length(account_holder) BETWEEN 1 AND 200),
  -- an IBAN or a local account number, as the customer types it into their bank's form
  account_number text        NOT NULL CHECK (length(account_number) BETWEEN 1 AND 64),
  bic            text        CHECK (bic ~ '^[A-Z0-9]{8}([A-Z0-9]{3})?$'),
  bank_name      text        NOT NULL CHECK (length(bank_name) BETWEEN 1 AND 200),
  instructions   text        CHECK (length(instructions) <= 2000),
  updated_at     timestamptz NOT NULL
);

CREATE TABLE funding_transfers (
  id               bigserial      PRIMARY KEY,
  account_id       bigint         NOT NULL REFERENCES accounts (id),
  currency_code    char(3)        NOT NULL,
  amount           numeric(24, 6) NOT NULL CHECK (amount > 0),
  transfer_date    date           NOT NULL,
  -- the account's reference when it was announced, and the customer's own (their bank's) reference
  reference        text           NOT NULL,
  payer_reference  text           CHECK (length(payer_reference) <= 140),
  status           text           NOT NULL DEFAULT 'announced'
                                  CHECK (status IN ('announced', 'confirmed', 'rejected')),
  announced_by     bigint         REFERENCES web_users (id),
  created_at       timestamptz    NOT NULL,
  -- who decided: the operator (web user) or the admin key, as the audit log names them
  decided_by       text,
  decided_at       timestamptz,
  reject_reason    text           CHECK (length(reject_reason) BETWEEN 1 AND 500),
  -- the FUNDING entry a confirmation wrote (never two: the confirmation is one guarded UPDATE, and
  -- the entry's id is set in the same transaction, right after the ledger posted it)
  ledger_entry_id  bigint         UNIQUE REFERENCES ledger_entries (id),
  CHECK ((status = 'announced') = (decided_at IS NULL)),
  CHECK (ledger_entry_id IS NULL OR status = 'confirmed'),
  CHECK ((status = 'rejected') = (reject_reason IS NOT NULL))
);
-- The dashboard's list of one account's transfers, newest first.
CREATE INDEX funding_transfers_account ON funding_transfers (account_id, id DESC);
-- The console's queue: the announced ones, oldest first.
CREATE INDEX funding_transfers_announced ON funding_transfers (id) WHERE status = 'announced';

-- Monthly statements: the sums of one account's entries before a month and within it, and the first
-- and last entry of the month (amount and id included, so they read the index alone).
CREATE INDEX ledger_entries_statement ON ledger_entries (account_id, environment, created_at) INCLUDE (amount, id);

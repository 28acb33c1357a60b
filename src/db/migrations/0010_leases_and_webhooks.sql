-- Crash safety and webhooks (issue 9).
--
-- 1. Leases. The background work is recorded on the rows it is about (next_check_at, next_attempt_at);
--    a server that takes a due row sets lease_until/leased_by in the same statement that finds it
--    (FOR UPDATE SKIP LOCKED), so N servers share the work and none takes a row another one holds. A
--    server that dies holds its rows only until lease_until: then any server takes them over.
ALTER TABLE giftcard_transactions ADD COLUMN lease_until timestamptz, ADD COLUMN leased_by text;
ALTER TABLE topup_transactions ADD COLUMN lease_until timestamptz, ADD COLUMN leased_by text;

-- 2. Webhooks. An endpoint of an account in one environment: where to POST, which event types
--    (patterns such as 'giftcard.order.*'), its signing secret (AES-256-GCM sealed, iv.tag.ciphertext).
CREATE TABLE webhook_endpoints (
  id              bigserial   PRIMARY KEY,
  account_id      bigint      NOT NULL REFERENCES accounts (id),
  environment     text        NOT NULL CHECK (environment IN ('live', 'sandbox')),
  url             text        NOT NULL,
  events          text[]      NOT NULL,
  secret_sealed   text        NOT NULL,
  created_at      timestamptz NOT NULL,
  -- the first failed attempt since the last success; disabled when it is 3 days old
  failing_since   timestamptz,
  disabled_at     timestamptz,
  disabled_reason text,
  removed_at      timestamptz
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id, environment)
  WHERE removed_at IS NULL;

-- The threshold under which a debit raises balance.low, per account and environment.
CREATE TABLE webhook_balance_thresholds (
  account_id  bigint  NOT NULL REFERENCES accounts (id),
  environment text    NOT NULL CHECK (environment IN ('live', 'sandbox')),
  threshold   numeric NOT NULL CHECK (threshold >= 0),
  PRIMARY KEY (account_id, environment)
);

-- The outbox: one row per event, written by the triggers below in the transaction of the change it
-- tells of (a rolled-back change leaves none, a committed one always has it). The payload is the
-- resource the API shows (rendered by the application at delivery: subject_id names the transaction
-- or ledger entry); status is the order's state the event is about.
CREATE TABLE webhook_events (
  id           bigserial   PRIMARY KEY,
  account_id   bigint      NOT NULL,
  environment  text        NOT NULL,
  type         text        NOT NULL,
  subject_id   bigint      NOT NULL,
  created_at   timestamptz NOT NULL
);

-- One event to one endpoint: the leased job of the worker.
CREATE TABLE webhook_deliveries (
  id               bigserial   PRIMARY KEY,
  event_id         bigint      NOT NULL REFERENCES webhook_events (id),
  endpoint_id      bigint      NOT NULL REFERENCES webhook_endpoints (id),
  status           text        NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempts         integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_status_code integer,
  last_error       text,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL,
  lease_until      timestamptz,
  leased_by        text,
  CHECK ((status = 'PENDING') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id DESC);

-- The delivery log: every attempt, with what came back.
CREATE TABLE webhook_attempts (
  id              bigserial   PRIMARY KEY,
  delivery_id     bigint      NOT NULL REFERENCES webhook_deliveries (id),
  attempt         integer     NOT NULL,
  attempted_at    timestamptz NOT NULL,
  status_code     integer,
  latency_ms      integer     NOT NULL,
  error           text,
  next_attempt_at timestamptz
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);

-- Records an event and one delivery per matching, enabled endpoint of its account and environment.
-- A pattern matches the type exactly or with '*' standing for the rest ('giftcard.order.*', '*').
CREATE FUNCTION webhook_enqueue(p_account bigint, p_environment text, p_type text, p_subject bigint,
                                p_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event_id bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                 WHERE e.account_id = p_account AND e.environment = p_environment
                   AND e.removed_at IS NULL AND e.disabled_at IS NULL) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (account_id, environment, type, subject_id, created_at)
  VALUES (p_account, p_environment, p_type, p_subject, p_at) RETURNING id INTO event_id;
  INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at)
  SELECT event_id, e.id, 'PENDING', p_at, p_at
  FROM webhook_endpoints e
  WHERE e.account_id = p_account AND e.environment = p_environment
    AND e.removed_at IS NULL AND e.disabled_at IS NULL
    AND EXISTS (SELECT 1 FROM unnest(e.events) AS pattern
                WHERE pattern = p_type
                   OR (right(pattern, 1) = '*' AND left(p_type, length(pattern) - 1) = left(pattern, -1)));
END $$;

-- Gift card orders: successful, failed, refunded, when the row reaches the state (inserted in it or
-- moved to it).
CREATE FUNCTION giftcard_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('SUCCESSFUL', 'FAILED', 'REFUNDED')
     AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status) THEN
    PERFORM webhook_enqueue(NEW.account_id, NEW.environment, 'giftcard.order.' || lower(NEW.status),
                            NEW.id, NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER giftcard_order_events AFTER INSERT OR UPDATE OF status ON giftcard_transactions
  FOR EACH ROW EXECUTE FUNCTION giftcard_order_events();

CREATE FUNCTION topup_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('SUCCESSFUL', 'REFUNDED')
     AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status) THEN
    PERFORM webhook_enqueue(NEW.account_id, NEW.environment, 'topup.' || lower(NEW.status),
                            NEW.id, NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER topup_events AFTER INSERT OR UPDATE OF status ON topup_transactions
  FOR EACH ROW EXECUTE FUNCTION topup_events();

-- Balances: every change writes a ledger entry, so the entry is where balance events are seen.
-- balance.funded: a FUNDING entry. balance.low: an entry that takes the balance from at or above the
-- account's threshold to below it (once per crossing, not at every order under it).
CREATE FUNCTION balance_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  low numeric;
BEGIN
  IF NEW.kind = 'FUNDING' THEN
    PERFORM webhook_enqueue(NEW.account_id, NEW.environment, 'balance.funded', NEW.id, NEW.created_at);
  END IF;
  IF NEW.amount < 0 THEN
    SELECT threshold INTO low FROM webhook_balance_thresholds
    WHERE account_id = NEW.account_id AND environment = NEW.environment;
    IF low IS NOT NULL AND NEW.balance_after < low AND NEW.balance_after - NEW.amount >= low THEN
      PERFORM webhook_enqueue(NEW.account_id, NEW.environment, 'balance.low', NEW.id, NEW.created_at);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER balance_events AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION balance_events();

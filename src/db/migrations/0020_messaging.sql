-- Messaging (issue 26): one outbox of e-mails and text messages, sent by the worker, and what a gift
-- card's recipient is given: a redeem link, the reveals through it, the one-time codes sent by SMS.
--
-- Like the webhook outbox (0010, 0017), the recipient's message of a gift card order is written by a
-- trigger in the transaction that makes the order SUCCESSFUL (inserted so, or moved there), so the
-- order path (batched INSERTs under the account's row lock) does no work of its own for it and no code
-- path can forget it. The trigger writes rows only: the message is rendered by the worker when it
-- sends it (modules/messaging/), from the order, the account's branding and the link.

-- A link to the redeem page of one gift card order. The token in the link is derived by the server
-- from the link's id and a key of its own (HMAC), at least 128 bits, so the trigger can create the
-- link without knowing it; only its SHA-256 is stored, set by the first code that derives it (the
-- worker rendering the message). A link lives REDEEM_LINK_DAYS from created_at (the setting, read at
-- use), while its order is SUCCESSFUL and until revoked_at (a resend to a corrected address).
CREATE TABLE redeem_links (
  id             bigserial   PRIMARY KEY,
  transaction_id bigint      NOT NULL REFERENCES giftcard_transactions (id),
  token_hash     text        UNIQUE,
  created_at     timestamptz NOT NULL,
  revoked_at     timestamptz
);
CREATE INDEX redeem_links_by_transaction ON redeem_links (transaction_id, id DESC);

-- Every reveal of the codes through a link: when and from which address.
CREATE TABLE redeem_reveals (
  id             bigserial   PRIMARY KEY,
  link_id        bigint      NOT NULL REFERENCES redeem_links (id),
  transaction_id bigint      NOT NULL,
  ip             text,
  at             timestamptz NOT NULL
);
CREATE INDEX redeem_reveals_by_transaction ON redeem_reveals (transaction_id, id);

-- A one-time code sent by SMS before a reveal (orders with a recipient phone). The code is derived
-- from the row's id with a key of its own, never stored; 10 minutes, 5 tries, then locked.
CREATE TABLE redeem_codes (
  id         bigserial   PRIMARY KEY,
  link_id    bigint      NOT NULL REFERENCES redeem_links (id),
  ip         text,
  tries      integer     NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX redeem_codes_by_link ON redeem_codes (link_id, id DESC);
CREATE INDEX redeem_codes_by_ip ON redeem_codes (ip, created_at);

-- How an account's messages and pages look: the name shown as the sender, a logo, a colour, a footer
-- line, and whether the code goes inline in the e-mail (off: the link only).
CREATE TABLE account_branding (
  account_id   bigint      PRIMARY KEY REFERENCES accounts (id),
  display_name text,
  logo_url     text,
  color        text        CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
  footer       text,
  code_in_email boolean    NOT NULL DEFAULT false,
  updated_at   timestamptz NOT NULL
);

-- The outbox: one message to one address. `kind` names its template; the subject (an order, a
-- link, a one-time code, a user) is in the columns and `data`; a message that carries a secret the
-- server cannot derive again (an invitation's or a password reset's link) keeps it sealed in
-- `secret_sealed`. Statuses:
--   queued   waiting for its next attempt (next_attempt_at) by the worker (leases as webhooks)
--   sent     accepted by the mail server / SMSC (provider_id: its id of the message)
--   delivered confirmed by the far end (kept for delivery receipts)
--   failed   refused for good, or temporary refusals for a day (last_error says why)
--   captured a sandbox message: rendered and kept, never sent
--   unsent   no SMTP_URL / SMS_URL configured: rendered and kept, "not sent: no ... configured"
CREATE TABLE messages (
  id              bigserial   PRIMARY KEY,
  kind            text        NOT NULL,
  channel         text        NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient       text        NOT NULL,
  account_id      bigint,
  environment     text        CHECK (environment IN ('live', 'sandbox')),
  transaction_id  bigint,
  link_id         bigint      REFERENCES redeem_links (id),
  data            jsonb       NOT NULL DEFAULT '{}',
  secret_sealed   text,
  locale          text        NOT NULL DEFAULT 'en',
  status          text        NOT NULL
                  CHECK (status IN ('queued', 'sent', 'delivered', 'failed', 'captured', 'unsent')),
  attempts        integer     NOT NULL DEFAULT 0,
  -- not sent before this time (scheduled delivery)
  send_after      timestamptz NOT NULL,
  next_attempt_at timestamptz,
  last_error      text,
  provider_id     text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  sent_at         timestamptz,
  lease_until     timestamptz,
  leased_by       text,
  CHECK ((status = 'queued') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX messages_due ON messages (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX messages_by_transaction ON messages (transaction_id, id) WHERE transaction_id IS NOT NULL;

-- The recipient's message of gift card orders that became SUCCESSFUL with a recipient: a link, and one
-- e-mail with it (or, with a phone and no e-mail, one SMS with it). `orders` is the set of rows
-- (id, account_id, environment, recipient_email, recipient_phone, updated_at) to deliver.
CREATE FUNCTION giftcard_deliveries_enqueue(p_orders jsonb) RETURNS void LANGUAGE sql AS $$
  WITH o AS (
    SELECT * FROM jsonb_to_recordset(p_orders)
      AS x(id bigint, account_id bigint, environment text, recipient_email text, recipient_phone text,
           updated_at timestamptz)
  ), links AS (
    INSERT INTO redeem_links (transaction_id, created_at)
    SELECT id, updated_at FROM o ORDER BY id
    RETURNING id, transaction_id
  )
  INSERT INTO messages (kind, channel, recipient, account_id, environment, transaction_id, link_id,
                        status, send_after, next_attempt_at, created_at, updated_at)
  SELECT CASE WHEN o.recipient_email IS NOT NULL THEN 'giftcard.recipient' ELSE 'giftcard.link_sms' END,
         CASE WHEN o.recipient_email IS NOT NULL THEN 'email' ELSE 'sms' END,
         coalesce(o.recipient_email, o.recipient_phone), o.account_id, o.environment, o.id, links.id,
         'queued', o.updated_at, o.updated_at, o.updated_at, o.updated_at
  FROM o JOIN links ON links.transaction_id = o.id
  ORDER BY o.id;
$$;

CREATE FUNCTION giftcard_deliveries_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  batch jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('id', n.id, 'account_id', n.account_id, 'environment', n.environment,
                   'recipient_email', n.recipient_email, 'recipient_phone', n.recipient_phone,
                   'updated_at', n.updated_at))
  INTO batch
  FROM new_orders n
  WHERE n.status = 'SUCCESSFUL' AND (n.recipient_email IS NOT NULL OR n.recipient_phone IS NOT NULL);
  IF batch IS NOT NULL THEN
    PERFORM giftcard_deliveries_enqueue(batch);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER giftcard_deliveries_inserted AFTER INSERT ON giftcard_transactions
  REFERENCING NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION giftcard_deliveries_of_statement();

CREATE FUNCTION giftcard_deliveries_of_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'SUCCESSFUL' AND OLD.status IS DISTINCT FROM NEW.status
     AND (NEW.recipient_email IS NOT NULL OR NEW.recipient_phone IS NOT NULL) THEN
    PERFORM giftcard_deliveries_enqueue(jsonb_build_array(jsonb_build_object(
      'id', NEW.id, 'account_id', NEW.account_id, 'environment', NEW.environment,
      'recipient_email', NEW.recipient_email, 'recipient_phone', NEW.recipient_phone,
      'updated_at', NEW.updated_at)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER giftcard_deliveries_updated AFTER UPDATE OF status ON giftcard_transactions
  FOR EACH ROW EXECUTE FUNCTION giftcard_deliveries_of_update();

-- giftcard.delivery.sent / giftcard.delivery.failed: a recipient's message (of a gift card order) that
-- reaches sent or captured, or failed; the subject is the message.
CREATE FUNCTION giftcard_delivery_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.transaction_id IS NOT NULL AND NEW.account_id IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status
     AND NEW.status IN ('sent', 'captured', 'failed', 'unsent') THEN
    PERFORM webhook_enqueue(NEW.account_id, NEW.environment,
                            CASE WHEN NEW.status IN ('sent', 'captured') THEN 'giftcard.delivery.sent'
                                 ELSE 'giftcard.delivery.failed' END,
                            NEW.id, NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER giftcard_delivery_events AFTER UPDATE OF status ON messages
  FOR EACH ROW EXECUTE FUNCTION giftcard_delivery_events();

-- balance.low also e-mails the account's dashboard users (each with a password): the same crossing
-- as the webhook event (0010, 0017), found in the same loop, so an order that crosses nothing pays
-- nothing more. The message names the ledger entry; it is rendered at send time.
CREATE OR REPLACE FUNCTION balance_events_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e record;
BEGIN
  FOR e IN
    SELECT n.account_id, n.environment, n.id, n.created_at,
           CASE WHEN n.kind = 'FUNDING' THEN 'balance.funded' ELSE 'balance.low' END AS type
    FROM new_entries n
    LEFT JOIN webhook_balance_thresholds t
      ON t.account_id = n.account_id AND t.environment = n.environment
    WHERE n.kind = 'FUNDING'
       OR (n.amount < 0 AND t.threshold IS NOT NULL
           AND n.balance_after < t.threshold AND n.balance_after - n.amount >= t.threshold)
    ORDER BY n.id
  LOOP
    PERFORM webhook_enqueue(e.account_id, e.environment, e.type, e.id, e.created_at);
    IF e.type = 'balance.low' THEN
      INSERT INTO messages (kind, channel, recipient, account_id, environment, data, status, send_after,
                            next_attempt_at, created_at, updated_at)
      SELECT 'balance.low', 'email', u.email, e.account_id, e.environment,
             jsonb_build_object('entryId', e.id), 'queued', e.created_at, e.created_at, e.created_at, e.created_at
      FROM web_users u
      WHERE u.kind = 'customer' AND u.account_id = e.account_id AND u.password_hash IS NOT NULL
      ORDER BY u.id;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

-- Live fulfilment by an upstream service that speaks the same APIs (issue 8): one upstream per
-- product, configured by `airgift upstream set`, and the calls made to it for each of our
-- transactions (both products), so that an order whose call had an unknown outcome is reconciled
-- instead of bought twice.

-- The upstream of one product. client_secret is AES-256-GCM sealed (iv.tag.ciphertext, a key derived
-- from CARD_CODES_KEY); ca_pem, when set, is the only CA its TLS certificate is checked against.
-- Health: the last error and the last success of a call, and when the upstream last refused an order
-- for its own balance (insufficient_balance_at; cleared by the next order it takes).
CREATE TABLE upstreams (
  product                 text        PRIMARY KEY CHECK (product IN ('giftcards', 'topups')),
  base_url                text        NOT NULL,
  auth_url                text        NOT NULL,
  client_id               text        NOT NULL,
  client_secret           text        NOT NULL,
  ca_pem                  text,
  margin_percent          numeric     NOT NULL DEFAULT 0 CHECK (margin_percent >= 0 AND margin_percent < 100),
  last_error              text,
  last_error_at           timestamptz,
  last_success_at         timestamptz,
  insufficient_balance_at timestamptz,
  last_sync_at            timestamptz,
  updated_at              timestamptz NOT NULL
);

-- One of our transactions sent to the upstream. custom_identifier is what we sent (derived from our
-- transaction id, so a retry never buys twice). state:
--   unknown  the request may have reached the upstream (sent, or timed out / reset / 5xx): reconcile
--   placed   the upstream has the transaction (upstream_transaction_id), not final yet
--   final    the upstream's transaction is final (upstream_status SUCCESSFUL, REFUNDED, ...)
--   refused  the upstream refused it (last_error), nothing was bought
CREATE TABLE upstream_calls (
  product                 text        NOT NULL CHECK (product IN ('giftcards', 'topups')),
  transaction_id          bigint      NOT NULL,
  custom_identifier       text        NOT NULL,
  upstream_transaction_id bigint,
  state                   text        NOT NULL CHECK (state IN ('unknown', 'placed', 'final', 'refused')),
  upstream_status         text,
  attempts                integer     NOT NULL DEFAULT 0,
  last_error              text,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  PRIMARY KEY (product, transaction_id)
);
CREATE UNIQUE INDEX upstream_calls_custom_identifier ON upstream_calls (product, custom_identifier);

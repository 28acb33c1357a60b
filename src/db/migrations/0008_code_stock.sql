-- Live fulfilment from the operator's own code stock (issue 8): the codes loaded by
-- `airgift stock import`, the provider each live product is routed to, and the orders the stock has
-- taken (drawn at once, or pre-orders waiting for codes).

-- Which provider fulfils a live product; no row: the live default (no provider in this version).
CREATE TABLE giftcard_product_providers (
  product_id integer     PRIMARY KEY REFERENCES giftcard_products (id),
  provider   text        NOT NULL CHECK (provider IN ('stock', 'upstream')),
  updated_at timestamptz NOT NULL
);

-- One gift card code of the stock. card_number and pin_code are AES-256-GCM sealed like the codes of
-- giftcard_cards (iv.tag.ciphertext); card_number_hmac is a keyed HMAC-SHA256 of the clear card number
-- (key derived from CARD_CODES_KEY), so the same card cannot be loaded twice for one product although
-- the sealed text differs each time. A code is sold when it has a transaction; it is never deleted.
CREATE TABLE giftcard_stock (
  id               bigserial   PRIMARY KEY,
  product_id       integer     NOT NULL REFERENCES giftcard_products (id),
  -- in the product's recipient currency
  face_value       numeric     NOT NULL CHECK (face_value > 0),
  card_number      text        NOT NULL,
  pin_code         text        NOT NULL,
  card_number_hmac text        NOT NULL,
  expires_at       timestamptz,
  imported_at      timestamptz NOT NULL,
  transaction_id   bigint      REFERENCES giftcard_transactions (id),
  sold_at          timestamptz,
  CHECK ((transaction_id IS NULL) = (sold_at IS NULL))
);
CREATE UNIQUE INDEX giftcard_stock_card ON giftcard_stock (product_id, card_number_hmac);
-- the draw: the oldest unsold codes of one product and face value
CREATE INDEX giftcard_stock_unsold ON giftcard_stock (product_id, face_value, id) WHERE transaction_id IS NULL;
CREATE INDEX giftcard_stock_sold ON giftcard_stock (transaction_id) WHERE transaction_id IS NOT NULL;

-- The live orders the stock accepted: it finishes them whatever the product's route becomes later.
-- filled_at is null while a pre-order waits for codes.
CREATE TABLE giftcard_stock_orders (
  transaction_id bigint      PRIMARY KEY REFERENCES giftcard_transactions (id),
  product_id     integer     NOT NULL,
  face_value     numeric     NOT NULL,
  quantity       integer     NOT NULL CHECK (quantity > 0),
  created_at     timestamptz NOT NULL,
  filled_at      timestamptz
);
CREATE INDEX giftcard_stock_orders_waiting
  ON giftcard_stock_orders (product_id, face_value, created_at) WHERE filled_at IS NULL;

-- The gift card catalog (categories, brands, products and their denominations), the gift card
-- transactions (orders) and their cards. The catalog is loaded from data/seed/*.json on an empty
-- database and changed by the admin API; ids come from the files, never from a sequence, so they
-- stay stable across restarts and re-seeds. Amounts are unconstrained `numeric`, which keeps the
-- scale they were written with ("25.00", "1500", "7.500").

CREATE TABLE giftcard_categories (
  id   integer PRIMARY KEY,
  name text    NOT NULL
);

CREATE TABLE giftcard_brands (
  id          integer PRIMARY KEY,
  name        text    NOT NULL,
  category_id integer NOT NULL REFERENCES giftcard_categories (id),
  redeem_concise text NOT NULL,
  redeem_verbose text NOT NULL,
  logo_url    text    NOT NULL
);

CREATE TABLE giftcard_products (
  id                      integer  PRIMARY KEY CHECK (id > 0),
  name                    text     NOT NULL,
  brand_id                integer  NOT NULL REFERENCES giftcard_brands (id),
  category_id             integer  NOT NULL REFERENCES giftcard_categories (id),
  country_code            char(2)  NOT NULL,
  global                  boolean  NOT NULL DEFAULT false,
  supports_pre_order      boolean  NOT NULL DEFAULT false,
  status                  text     NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
  denomination_type       text     NOT NULL CHECK (denomination_type IN ('FIXED', 'RANGE')),
  recipient_currency_code char(3)  NOT NULL,
  min_recipient_denomination numeric CHECK (min_recipient_denomination > 0),
  max_recipient_denomination numeric,
  -- in USD; converted to the account currency when shown or charged
  sender_fee              numeric  NOT NULL DEFAULT 0 CHECK (sender_fee >= 0),
  sender_fee_percentage   numeric  NOT NULL DEFAULT 0 CHECK (sender_fee_percentage >= 0 AND sender_fee_percentage < 100),
  discount_percentage     numeric  NOT NULL DEFAULT 0 CHECK (discount_percentage >= 0 AND discount_percentage < 100),
  user_id_required        boolean  NOT NULL DEFAULT false,
  logo_urls               text[]   NOT NULL DEFAULT '{}',
  -- null: the brand's redeem instructions apply
  redeem_concise          text,
  redeem_verbose          text,
  CHECK ((denomination_type = 'RANGE') = (min_recipient_denomination IS NOT NULL AND max_recipient_denomination IS NOT NULL)),
  CHECK (max_recipient_denomination IS NULL OR max_recipient_denomination >= min_recipient_denomination)
);
CREATE INDEX giftcard_products_country_idx ON giftcard_products (country_code);

-- FIXED products' recipient face values.
CREATE TABLE giftcard_denominations (
  product_id integer NOT NULL REFERENCES giftcard_products (id) ON DELETE CASCADE,
  amount     numeric NOT NULL CHECK (amount > 0),
  PRIMARY KEY (product_id, amount)
);

-- Transaction ids are integers clients see; they start high enough never to look like test values.
CREATE SEQUENCE giftcard_transaction_ids START WITH 10001;

CREATE TABLE giftcard_transactions (
  id                    bigint      PRIMARY KEY,
  account_id            bigint      NOT NULL REFERENCES accounts (id),
  environment           text        NOT NULL CHECK (environment IN ('live', 'sandbox')),
  status                text        NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED')),
  -- what was bought, copied at purchase so later catalog changes never rewrite history
  product_id            integer     NOT NULL REFERENCES giftcard_products (id),
  product_name          text        NOT NULL,
  country_code          char(2)     NOT NULL,
  brand_id              integer     NOT NULL,
  brand_name            text        NOT NULL,
  quantity              integer     NOT NULL CHECK (quantity > 0),
  unit_price            numeric     NOT NULL CHECK (unit_price > 0),
  total_price           numeric     NOT NULL,
  recipient_currency_code char(3)   NOT NULL,
  -- the price, in the account currency
  currency_code         char(3)     NOT NULL,
  sender_unit_price     numeric     NOT NULL,
  amount                numeric     NOT NULL CHECK (amount > 0),
  fee                   numeric     NOT NULL,
  discount              numeric     NOT NULL,
  sms_fee               numeric     NOT NULL,
  total_fee             numeric     NOT NULL,
  old_balance           numeric     NOT NULL,
  new_balance           numeric     NOT NULL,
  balance_updated_at    timestamptz NOT NULL,
  custom_identifier     text        CHECK (length(custom_identifier) BETWEEN 1 AND 150),
  pre_ordered           boolean     NOT NULL DEFAULT false,
  sender_name           text        NOT NULL,
  recipient_email       text,
  recipient_phone       text,
  recipient_phone_country char(2),
  user_id               text,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  -- when the fulfilment poller looks at the order next; null once it is final
  next_check_at         timestamptz
);
-- decisions §6: one customIdentifier per account, environment and product, whatever the concurrency.
CREATE UNIQUE INDEX giftcard_transactions_custom_identifier
  ON giftcard_transactions (account_id, environment, product_id, custom_identifier)
  WHERE custom_identifier IS NOT NULL;
CREATE INDEX giftcard_transactions_reports ON giftcard_transactions (account_id, environment, id);
CREATE INDEX giftcard_transactions_due ON giftcard_transactions (next_check_at) WHERE next_check_at IS NOT NULL;

-- Redeem codes, AES-256-GCM encrypted (iv.tag.ciphertext, base64url); never stored in clear.
CREATE TABLE giftcard_cards (
  transaction_id bigint  NOT NULL REFERENCES giftcard_transactions (id),
  position       integer NOT NULL CHECK (position >= 1),
  card_number    text    NOT NULL,
  pin_code       text    NOT NULL,
  PRIMARY KEY (transaction_id, position)
);

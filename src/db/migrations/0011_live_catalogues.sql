-- The live catalogue synced from a product's upstream (issue 8, `airgift catalog sync` and the
-- UPSTREAM_SYNC_MINUTES schedule). One snapshot per product, replaced whole by each sync: the
-- document is what live serves (gift cards: a catalog file of categories, brands and products with
-- the margin applied; top-ups: operators, promotions, number prefixes and FX rates), ids being the
-- upstream's. The sandbox keeps the seeded catalogue (giftcard_* tables, data/operators). A snapshot
-- is served only while the upstream it came from (upstream_url) is the product's configured one:
-- without an upstream, or before the first sync, live serves the seeded catalogue as before.
CREATE TABLE live_catalogues (
  product        text        PRIMARY KEY CHECK (product IN ('giftcards', 'topups')),
  upstream_url   text        NOT NULL,
  margin_percent numeric     NOT NULL,
  document       jsonb       NOT NULL,
  -- counts of what the document holds, for `catalog sync` answers and the operator's eye
  counts         jsonb       NOT NULL,
  synced_at      timestamptz NOT NULL
);

-- A live order names a product of the synced catalogue, whose ids are the upstream's and need not
-- be rows of giftcard_products (the seeded catalogue). The order row copies what was bought (name,
-- brand, country, prices), so history never needed the reference.
ALTER TABLE giftcard_transactions DROP CONSTRAINT IF EXISTS giftcard_transactions_product_id_fkey;

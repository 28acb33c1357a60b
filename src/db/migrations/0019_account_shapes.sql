-- Which shapes an account's gift card answers take (issue 27, docs/compatibility.md).
--
-- 'documented': the gift card spec's shapes (bare arrays, the denominations map as an array of
-- one-key objects, the error timeStamp in epoch milliseconds), what every account answered before.
-- 'service': the live service's shapes that its official SDKs read (the paged wrapper on /products,
-- /discounts and /reports/transactions, the map as one object, timeStamp as yyyy-MM-dd HH:mm:ss).
-- One setting per account: both environments and every credential of it.
ALTER TABLE accounts ADD COLUMN shapes text NOT NULL DEFAULT 'documented'
  CHECK (shapes IN ('documented', 'service'));

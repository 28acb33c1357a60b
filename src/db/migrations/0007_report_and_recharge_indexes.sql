-- Indexes that serve the hot and the report queries whatever the planner's statistics say (a server
-- with autovacuum off may never have analysed these tables).

-- PHONE_RECENTLY_RECHARGED (topups-repository.rechargedSince): every column of the query's equality
-- and range conditions, and its `status <> 'REFUNDED'` as the index predicate, so no other index can
-- look cheaper. It replaces the index of 0004 that lacked the predicate.
CREATE INDEX topup_recently_recharged
  ON topup_transactions (account_id, environment, recipient_phone, created_at DESC)
  WHERE status <> 'REFUNDED';
DROP INDEX topup_recent_by_recipient;

-- Gift card reports (orders-repository.report): newest first (by id) within each filter, so a page is
-- read from the index in order and stops after its rows, however many transactions the account has.
-- Each ends with id: on a table never analysed every index looks equally cheap, and only one that
-- also gives the ORDER BY id order beats the unfiltered (account_id, environment, id) index of 0003.
-- The date range is the exception: its index needs a sort, so without statistics the planner may
-- still walk the account's transactions newest first until the range.
CREATE INDEX giftcard_transactions_by_status
  ON giftcard_transactions (account_id, environment, status, id);
CREATE INDEX giftcard_transactions_by_product
  ON giftcard_transactions (account_id, environment, product_id, id);
CREATE INDEX giftcard_transactions_by_brand
  ON giftcard_transactions (account_id, environment, brand_id, id);
CREATE INDEX giftcard_transactions_by_custom_identifier
  ON giftcard_transactions (account_id, environment, custom_identifier, id)
  WHERE custom_identifier IS NOT NULL;
CREATE INDEX giftcard_transactions_by_recipient_email
  ON giftcard_transactions (account_id, environment, recipient_email, id)
  WHERE recipient_email IS NOT NULL;
CREATE INDEX giftcard_transactions_by_date
  ON giftcard_transactions (account_id, environment, created_at, id);

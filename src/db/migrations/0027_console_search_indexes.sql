-- Issue 28: the console's transaction search across accounts (modules/web/console/
-- transaction-search-repository.ts). Every index of 0003, 0004 and 0007 starts with account_id, so a
-- search of every account read each table whole: on 300 000 rows per table the default page (the
-- newest of one environment) took 520 ms, a customIdentifier 250 ms, a recipient 200-280 ms. With
-- these, each is under 1 ms (EXPLAIN ANALYZE on PostgreSQL 15; docs/dashboard-and-console.md).

-- The newest first within an environment: the default page, dates, status, keyset CSV batches.
CREATE INDEX giftcard_transactions_by_environment_date
  ON giftcard_transactions (environment, created_at DESC, id DESC);
CREATE INDEX topup_transactions_by_environment_date
  ON topup_transactions (environment, created_at DESC, id DESC);

-- One customIdentifier, one recipient, across accounts. Partial where the column is plain: only the
-- rows that have one are in them, so an order without one writes nothing more there.
CREATE INDEX giftcard_transactions_custom_identifier_any_account
  ON giftcard_transactions (custom_identifier) WHERE custom_identifier IS NOT NULL;
CREATE INDEX topup_transactions_custom_identifier_any_account
  ON topup_transactions (custom_identifier) WHERE custom_identifier IS NOT NULL;
-- The e-mail ones are whole: the planner reads the statistics of an expression (lower()) from an
-- index without a predicate only, and without them it guessed hundreds of matches and walked the
-- environment's newest first instead (370 ms).
CREATE INDEX giftcard_transactions_recipient_email_any_account
  ON giftcard_transactions (lower(recipient_email));
CREATE INDEX topup_transactions_recipient_email_any_account
  ON topup_transactions (lower(recipient_email));
CREATE INDEX giftcard_transactions_recipient_phone_any_account
  ON giftcard_transactions (recipient_phone) WHERE recipient_phone IS NOT NULL;
CREATE INDEX topup_transactions_recipient_phone_any_account
  ON topup_transactions (recipient_phone) WHERE recipient_phone IS NOT NULL;

-- Daily limits without counting: one row per account, environment and UTC day with the number and
-- the total of that day's order debits, updated by the debit's own statement (ledger.ts), so the
-- limit check costs one row however many orders the day already holds. Refunds do not give usage
-- back (the limits count order debits, as before).
CREATE TABLE daily_order_usage (
  account_id   bigint         NOT NULL,
  environment  text           NOT NULL,
  day          date           NOT NULL,
  order_count  integer        NOT NULL CHECK (order_count >= 0),
  order_amount numeric(24, 6) NOT NULL CHECK (order_amount >= 0),
  PRIMARY KEY (account_id, environment, day)
);

-- The days already recorded in the ledger.
INSERT INTO daily_order_usage (account_id, environment, day, order_count, order_amount)
SELECT account_id, environment, (created_at AT TIME ZONE 'UTC')::date, count(*), -sum(amount)
FROM ledger_entries
WHERE kind = 'ORDER_DEBIT'
GROUP BY account_id, environment, (created_at AT TIME ZONE 'UTC')::date;

-- Issue 28: a transaction's page names the API request that created it. The request log's line of a
-- successful order request (POST /orders, POST /topups) carries the id of the transaction it created,
-- read from its answer off the request path (modules/request-log); the line goes when the log's
-- retention (REQUEST_LOG_DAYS) removes it.
ALTER TABLE api_request_log ADD COLUMN transaction_id bigint;
CREATE INDEX api_request_log_transaction ON api_request_log (account_id, product, transaction_id)
  WHERE transaction_id IS NOT NULL;

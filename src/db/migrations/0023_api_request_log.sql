-- Issue 28: the API request log of an account. One row per product-API request (gift cards, top-ups,
-- and the token endpoint once the client proved its secret), written in batches off the request path
-- (modules/request-log/request-log-buffer.ts), kept REQUEST_LOG_DAYS (the worker removes older rows in
-- batches). Secrets are masked before a row is written; card codes, PINs, secrets and tokens are never
-- stored. request_body and response_body are kept for failed requests (4xx, 5xx) only.
CREATE TABLE api_request_log (
  id            bigserial   PRIMARY KEY,
  at            timestamptz NOT NULL,
  account_id    bigint      NOT NULL,
  environment   text        NOT NULL,
  -- the base it came in through: giftcards, topups or auth
  product       text        NOT NULL,
  client_id     text        NOT NULL,
  method        text        NOT NULL,
  -- as the client sent it (the public path with its query), secrets masked
  path          text        NOT NULL,
  status        smallint    NOT NULL,
  latency_ms    real        NOT NULL,
  request_id    text        NOT NULL,
  request_body  text,
  response_body text
);
-- The dashboard's reads: one account, newest first (filters on status and path read within it).
CREATE INDEX api_request_log_account ON api_request_log (account_id, at DESC, id DESC);
-- The worker's removal of rows older than the retention.
CREATE INDEX api_request_log_at ON api_request_log (at);

-- Issue 30: the API request log's successful requests that created nothing (catalogue reads, balance
-- reads, token grants) are kept in segments, not one row each. A segment holds the lines of one
-- client (one account, environment and product) of one written batch, at most a minute apart, as one
-- JSON text: [[at ms, method, path, status, latency ms, request id], ...]. Writing a read then costs
-- the database a share of one row instead of a row and its three index entries (on the embedded
-- database, inside the server's own thread, a row cost a read about as much as the read itself).
-- Failed requests (with their bodies) and the requests that created a transaction stay rows of
-- api_request_log. The dashboard reads both as one list (modules/request-log/request-log-repository.ts).
CREATE TABLE api_request_reads (
  id          bigserial   PRIMARY KEY,
  account_id  bigint      NOT NULL,
  environment text        NOT NULL,
  -- the base it came in through: giftcards, topups or auth
  product     text        NOT NULL,
  client_id   text        NOT NULL,
  -- the first and last line's time: the list reads only the segments of the time it shows, and the
  -- worker removes a segment once its last line is older than the retention
  first_at    timestamptz NOT NULL,
  last_at     timestamptz NOT NULL,
  lines       integer     NOT NULL,
  -- text, not json: nothing parses it on the way in; the list parses the segments it reads
  entries     text        NOT NULL
);
-- The list: one account's segments, newest first.
CREATE INDEX api_request_reads_account ON api_request_reads (account_id, last_at DESC);
-- The worker's removal of segments older than the retention.
CREATE INDEX api_request_reads_last_at ON api_request_reads (last_at);

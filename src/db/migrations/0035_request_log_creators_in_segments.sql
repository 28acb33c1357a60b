-- Issue 30: the request that created a transaction (a successful POST /orders or /topups) becomes a
-- line of a segment too, like a read, instead of a row of api_request_log with its four index entries:
-- that row cost PostgreSQL 17 µs of the 122 µs of a top-up and 27 µs of the 184 µs of a gift card
-- order (bench/README.md, "What the request log costs an order"). The transaction's page finds its
-- creator by these two arrays, one entry per such line of the segment: the transaction's id and the
-- request's id, at the same position. It reads only the account's segments of the minutes around the
-- transaction's creation (the account's index on last_at) and no JSON. NULL: a segment of reads only.
-- Rows of api_request_log written before this migration stay until the retention removes them, and
-- the page still finds its creator there.
ALTER TABLE api_request_reads
  ADD COLUMN created_transactions bigint[],
  ADD COLUMN creating_requests text[];

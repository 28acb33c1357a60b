-- Issue 30: a batch's debits statement (modules/ledger/batch-debits.ts) refuses by raising an error
-- inside PostgreSQL, not by answering rows without entries. The batch's COMMIT may already be on
-- the wire behind that statement (the pipelined COMMIT, modules/group-commit/): an error aborts the
-- transaction, so that COMMIT rolls it back, and the day's usage row the statement raised is never
-- kept for debits that did not happen. SQLSTATE AG001 is airgift's own; the ledger knows it.
CREATE FUNCTION refuse_batch_debit() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'the batch of debits did not fit (a daily limit or the balance)' USING ERRCODE = 'AG001';
END
$$;

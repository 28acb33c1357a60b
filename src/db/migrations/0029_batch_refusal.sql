-- Issue 30: a batch's statements that may refuse (the debits, modules/ledger/batch-debits.ts; a
-- batch's top-up rows with their checks, modules/topups/orders/orders-repository.ts) refuse by
-- raising an error inside PostgreSQL, not by answering rows that say so. The batch's COMMIT may
-- already be on the wire behind such a statement (the pipelined COMMIT, modules/group-commit/): an
-- error aborts the transaction, so that COMMIT rolls it back, and nothing the statement wrote (the
-- day's usage row raised by the debits) is kept for a batch that did not go through. SQLSTATE AG001
-- is airgift's own; the batch's orders then run again one at a time, each to its own answer.
CREATE FUNCTION refuse_batch(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION '%', reason USING ERRCODE = 'AG001';
END
$$;

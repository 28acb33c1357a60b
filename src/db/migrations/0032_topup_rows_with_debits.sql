-- Issue 30: a batch's top-ups are written by the debits' own statement (their row writer,
-- modules/topups/orders/orders-repository.ts), as gift card orders are: one statement and one round
-- trip less while the account's balance row is locked. Their rule that a number is not topped up
-- twice within a few minutes must still see every top-up committed while that statement waited for
-- the lock (another server's, to the same number), and a statement sees only what committed before
-- it began. A VOLATILE PL/pgSQL function takes a new snapshot for each query it runs (READ
-- COMMITTED): called on a row of the debits' `entry` (after the lock), it sees them. A recharge it
-- finds refuses the whole batch (AG001, as refuse_batch), whose top-ups then run one at a time, each
-- to its own answer. The look-up is the seek on topup_recently_recharged (0007) that the check
-- before the lock makes: the number's latest top-up that was not refunded. It must stay VOLATILE and
-- a function: STABLE, or the same EXISTS inline, would use the statement's snapshot and miss the
-- other server's top-up (test/group-commit/commit-behind.test.ts checks the marking). Being
-- VOLATILE it also sees the rows its own statement wrote before the row it is called on, so two
-- top-ups to one number in one batch would raise too; tags keep them apart anyway.
CREATE FUNCTION topup_recipient_free(account bigint, env text, recipient text, since timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF recipient IS NOT NULL AND EXISTS (
    SELECT 1 FROM (
      SELECT t.account_id, t.environment, t.recipient_phone, t.created_at FROM topup_transactions t
      WHERE t.status <> 'REFUNDED' AND (t.account_id, t.environment, t.recipient_phone) >= (account, env, recipient)
      ORDER BY t.account_id, t.environment, t.recipient_phone, t.created_at DESC
      LIMIT 1
    ) AS latest
    WHERE (latest.account_id, latest.environment, latest.recipient_phone) = (account, env, recipient)
      AND latest.created_at > since
  ) THEN
    RAISE EXCEPTION 'a top-up of the batch meets a check; the batch runs one at a time' USING ERRCODE = 'AG001';
  END IF;
  RETURN true;
END
$$;

-- Issue 30: the recent-recharge check after the lock (0032) was a PL/pgSQL call per top-up of a
-- batch, each running its look-up as a statement of its own (executor start-up, a snapshot, the
-- call): ~10% of PostgreSQL's CPU per top-up (perf of the backends, bench/README.md). This one takes
-- the batch's numbers in one call, after the balance row's lock (the caller passes the numbers of the
-- rows of `entry`), and looks each up in one statement: the same seek on topup_recently_recharged
-- per number. It stays a VOLATILE PL/pgSQL function, so its statement takes a new snapshot when it
-- starts and sees every top-up that committed while the batch waited for the lock (the reason 0032
-- made the check a function: STABLE, or the same EXISTS inline, would use the statement's snapshot).
-- A number recharged since `since` refuses the whole batch (AG001, as refuse_batch), whose top-ups
-- then run one at a time, each to its own answer. topup_recipient_free stays for a server of the
-- previous version during an upgrade, and asks this one with its one number: the rule is written once.
CREATE FUNCTION topup_recipients_free(account bigint, env text, recipients text[], since timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF EXISTS (
    SELECT 1
    FROM unnest(recipients) AS p (recipient)
    CROSS JOIN LATERAL (
      SELECT t.account_id, t.environment, t.recipient_phone, t.created_at FROM topup_transactions t
      WHERE t.status <> 'REFUNDED' AND (t.account_id, t.environment, t.recipient_phone) >= (account, env, p.recipient)
      ORDER BY t.account_id, t.environment, t.recipient_phone, t.created_at DESC
      LIMIT 1
    ) AS latest
    WHERE p.recipient IS NOT NULL
      AND (latest.account_id, latest.environment, latest.recipient_phone) = (account, env, p.recipient)
      AND latest.created_at > since
  ) THEN
    RAISE EXCEPTION 'a top-up of the batch meets a check; the batch runs one at a time' USING ERRCODE = 'AG001';
  END IF;
  RETURN true;
END
$$;

CREATE OR REPLACE FUNCTION topup_recipient_free(account bigint, env text, recipient text, since timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN topup_recipients_free(account, env, ARRAY[recipient], since);
END
$$;

-- Webhook events of inserted rows, found once per statement instead of once per row (issue 14).
--
-- A batch of orders (ledger/batcher.ts) writes its ledger entries, and its gift card or top-up rows,
-- in one statement each. The row-level triggers of 0010 ran a PL/pgSQL call per row, and the order
-- triggers a look-up of the account's endpoints per row: measured on PostgreSQL 15, 7-10 µs per
-- ledger entry and ~10 µs per order row, most of the trigger cost of an order, for the nearly always
-- empty answer "no endpoint". Now one statement-level trigger per table reads the statement's new
-- rows (a transition table) and enqueues, in id order, the events of the rows that have any; the
-- events and their deliveries are the same as before, rows and order alike. An UPDATE of a status
-- still fires per row (transition tables cannot go with `UPDATE OF status`, and updates come one at
-- a time from the worker).
--
-- Two indexes no query uses any more go too (one index entry less each per ledger entry):
--   ledger_order_debits_by_day  served the daily-limit sum, replaced by daily_order_usage in 0006;
--   ledger_entries_transaction_idx duplicates ledger_one_debit_per_order and ledger_one_refund_per_order,
--                                  the only entries with a transaction (no query reads it).

CREATE FUNCTION balance_events_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e record;
BEGIN
  FOR e IN
    SELECT n.account_id, n.environment, n.id, n.created_at,
           CASE WHEN n.kind = 'FUNDING' THEN 'balance.funded' ELSE 'balance.low' END AS type
    FROM new_entries n
    LEFT JOIN webhook_balance_thresholds t
      ON t.account_id = n.account_id AND t.environment = n.environment
    WHERE n.kind = 'FUNDING'
       OR (n.amount < 0 AND t.threshold IS NOT NULL
           AND n.balance_after < t.threshold AND n.balance_after - n.amount >= t.threshold)
    ORDER BY n.id
  LOOP
    PERFORM webhook_enqueue(e.account_id, e.environment, e.type, e.id, e.created_at);
  END LOOP;
  RETURN NULL;
END $$;
DROP TRIGGER balance_events ON ledger_entries;
DROP FUNCTION balance_events();
CREATE TRIGGER balance_events AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION balance_events_of_statement();

-- The rows inserted in a state that has an event, of accounts with an endpoint in that environment.
CREATE FUNCTION giftcard_order_events_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  FOR o IN
    SELECT n.account_id, n.environment, n.status, n.id, n.updated_at
    FROM new_orders n
    WHERE n.status IN ('SUCCESSFUL', 'FAILED', 'REFUNDED')
      AND EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.account_id = n.account_id AND e.environment = n.environment
                    AND e.removed_at IS NULL AND e.disabled_at IS NULL)
    ORDER BY n.id
  LOOP
    PERFORM webhook_enqueue(o.account_id, o.environment, 'giftcard.order.' || lower(o.status), o.id,
                            o.updated_at);
  END LOOP;
  RETURN NULL;
END $$;
DROP TRIGGER giftcard_order_events ON giftcard_transactions;
CREATE TRIGGER giftcard_order_events AFTER UPDATE OF status ON giftcard_transactions
  FOR EACH ROW EXECUTE FUNCTION giftcard_order_events();
CREATE TRIGGER giftcard_order_events_inserted AFTER INSERT ON giftcard_transactions
  REFERENCING NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION giftcard_order_events_of_statement();

CREATE FUNCTION topup_events_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  FOR o IN
    SELECT n.account_id, n.environment, n.status, n.id, n.updated_at
    FROM new_topups n
    WHERE n.status IN ('SUCCESSFUL', 'REFUNDED')
      AND EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.account_id = n.account_id AND e.environment = n.environment
                    AND e.removed_at IS NULL AND e.disabled_at IS NULL)
    ORDER BY n.id
  LOOP
    PERFORM webhook_enqueue(o.account_id, o.environment, 'topup.' || lower(o.status), o.id, o.updated_at);
  END LOOP;
  RETURN NULL;
END $$;
DROP TRIGGER topup_events ON topup_transactions;
CREATE TRIGGER topup_events AFTER UPDATE OF status ON topup_transactions
  FOR EACH ROW EXECUTE FUNCTION topup_events();
CREATE TRIGGER topup_events_inserted AFTER INSERT ON topup_transactions
  REFERENCING NEW TABLE AS new_topups
  FOR EACH STATEMENT EXECUTE FUNCTION topup_events_of_statement();

DROP INDEX ledger_order_debits_by_day;
DROP INDEX ledger_entries_transaction_idx;

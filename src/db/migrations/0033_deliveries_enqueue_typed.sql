-- Issue 30: the recipients' messages of gift card orders (0020) went through jsonb. The statement
-- trigger of the orders' rows built a jsonb document of them (jsonb_build_object, jsonb_agg), and
-- giftcard_deliveries_enqueue(jsonb) read it back with jsonb_to_recordset; that function was
-- LANGUAGE sql, so PostgreSQL planned its two inserts again at every call. Under gift card orders
-- with a recipient, the planning was ~4% of PostgreSQL's CPU and the jsonb round trip ~3% (perf of
-- the backends, bench/README.md). Now the rows go as typed arrays, one per column and in the same
-- row order (aggregates of one query read its rows in one order), to a PL/pgSQL function, whose plan
-- is kept per connection. The same rows are written: a link per order, then its message, by id.
CREATE FUNCTION giftcard_deliveries_enqueue(p_ids bigint[], p_accounts bigint[], p_environments text[],
                                            p_emails text[], p_phones text[], p_at timestamptz[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH o AS (
    SELECT * FROM unnest(p_ids, p_accounts, p_environments, p_emails, p_phones, p_at)
      AS x(id, account_id, environment, recipient_email, recipient_phone, updated_at)
  ), links AS (
    INSERT INTO redeem_links (transaction_id, created_at)
    SELECT id, updated_at FROM o ORDER BY id
    RETURNING id, transaction_id
  )
  INSERT INTO messages (kind, channel, recipient, account_id, environment, transaction_id, link_id,
                        status, send_after, next_attempt_at, created_at, updated_at)
  SELECT CASE WHEN o.recipient_email IS NOT NULL THEN 'giftcard.recipient' ELSE 'giftcard.link_sms' END,
         CASE WHEN o.recipient_email IS NOT NULL THEN 'email' ELSE 'sms' END,
         coalesce(o.recipient_email, o.recipient_phone), o.account_id, o.environment, o.id, links.id,
         'queued', o.updated_at, o.updated_at, o.updated_at, o.updated_at
  FROM o JOIN links ON links.transaction_id = o.id
  ORDER BY o.id;
END
$$;

CREATE OR REPLACE FUNCTION giftcard_deliveries_of_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  accounts bigint[];
  environments text[];
  emails text[];
  phones text[];
  ats timestamptz[];
BEGIN
  SELECT array_agg(n.id), array_agg(n.account_id), array_agg(n.environment), array_agg(n.recipient_email),
         array_agg(n.recipient_phone), array_agg(n.updated_at)
  INTO ids, accounts, environments, emails, phones, ats
  FROM new_orders n
  WHERE n.status = 'SUCCESSFUL' AND (n.recipient_email IS NOT NULL OR n.recipient_phone IS NOT NULL);
  IF ids IS NOT NULL THEN
    PERFORM giftcard_deliveries_enqueue(ids, accounts, environments, emails, phones, ats);
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION giftcard_deliveries_of_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'SUCCESSFUL' AND OLD.status IS DISTINCT FROM NEW.status
     AND (NEW.recipient_email IS NOT NULL OR NEW.recipient_phone IS NOT NULL) THEN
    PERFORM giftcard_deliveries_enqueue(ARRAY[NEW.id], ARRAY[NEW.account_id], ARRAY[NEW.environment],
                                        ARRAY[NEW.recipient_email], ARRAY[NEW.recipient_phone],
                                        ARRAY[NEW.updated_at]);
  END IF;
  RETURN NULL;
END
$$;

DROP FUNCTION giftcard_deliveries_enqueue(jsonb);

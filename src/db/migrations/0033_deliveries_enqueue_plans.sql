-- Issue 30: giftcard_deliveries_enqueue (0020) was a LANGUAGE sql function. PostgreSQL plans the body
-- of such a function again at every call (its plan lives only as long as the calling statement), and
-- it is called once per batch of gift card orders with a recipient, by the statement trigger of the
-- orders' rows: planning its two inserts was ~4% of PostgreSQL's CPU under a load of such orders
-- (perf of the backends, bench/README.md). The same statement in PL/pgSQL is planned once per
-- connection and kept. Same arguments, same rows written, same snapshot rules (VOLATILE either way).
CREATE OR REPLACE FUNCTION giftcard_deliveries_enqueue(p_orders jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH o AS (
    SELECT * FROM jsonb_to_recordset(p_orders)
      AS x(id bigint, account_id bigint, environment text, recipient_email text, recipient_phone text,
           updated_at timestamptz)
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

-- Balances that servers keep in memory (the balance read, issue 14), exact and in step across servers.
--
-- Every change of a balance row raises its `version` (a BEFORE trigger, so the ledger's statements
-- stay as they are and RETURNING sees the new number), and announces the row's new state on the
-- channel `airgift_balances`. PostgreSQL delivers a notification only when its transaction commits,
-- in commit order, to every session that listens: each server keeps the newest version it has
-- heard of, and a version never goes back. The payload is the row itself, so nobody reads it again:
--   account_id environment version balance currency_code updated_at(microseconds since 1970)
-- and for a deleted row: account_id environment -1
ALTER TABLE balances ADD COLUMN version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION balances_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$;

CREATE TRIGGER balances_next_version BEFORE UPDATE ON balances
  FOR EACH ROW EXECUTE FUNCTION balances_next_version();

CREATE FUNCTION balances_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('airgift_balances', OLD.account_id || ' ' || OLD.environment || ' -1');
    RETURN OLD;
  END IF;
  PERFORM pg_notify('airgift_balances', NEW.account_id || ' ' || NEW.environment || ' ' || NEW.version
    || ' ' || NEW.balance || ' ' || NEW.currency_code || ' '
    || (extract(epoch FROM NEW.updated_at) * 1000000)::bigint);
  RETURN NEW;
END;
$$;

CREATE TRIGGER balances_announce AFTER UPDATE OR DELETE ON balances
  FOR EACH ROW EXECUTE FUNCTION balances_announce();

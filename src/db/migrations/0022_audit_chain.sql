-- Issue 28: one audit log for every channel (the admin API and so the CLI, the console, the dashboard),
-- append-only and hash-chained, replacing web_audit_log (issue 10), whose lines move into it.
--
-- Each line is chained to the one before it: hash = SHA-256(prev_hash || the line's canonical content),
-- the first line's prev_hash being 64 zeros. The chain is written by the database itself: a BEFORE
-- INSERT trigger locks the chain head (one row) for the rest of the appending transaction, numbers the
-- line (id = the head's last id + 1: no gaps, chain order = id order), computes its hash and moves the
-- head. Appenders on every server therefore queue on that row lock and the chain stays one chain. A
-- removed line shows as a gap and a broken link, an edited line as a hash that no longer matches, the
-- removed last lines as a head ahead of the table (`airgift audit verify`, audit-repository.ts).

CREATE TABLE audit_log (
  -- its place in the chain, given by the trigger: 1, 2, 3, ... without gaps
  id          bigint      PRIMARY KEY,
  at          timestamptz NOT NULL,
  channel     text        NOT NULL CHECK (channel IN ('admin', 'console', 'dashboard')),
  -- who: an admin key (actor_id: the key's fingerprint, never the key), an operator or a dashboard
  -- user (actor_id: the web user's id; actor: the e-mail), or nobody signed in (a page's public
  -- action, such as asking for a password reset)
  actor_kind  text        NOT NULL CHECK (actor_kind IN ('admin-key', 'operator', 'customer', 'anonymous')),
  actor_id    text        NOT NULL,
  actor       text        NOT NULL,
  -- the account the change concerns, when it concerns one
  account_id  bigint,
  action      text        NOT NULL,
  target      text,
  -- what was asked (the request's body, secrets masked), the state before (where there is one) and after
  details     jsonb       NOT NULL DEFAULT '{}',
  before      jsonb,
  after       jsonb,
  ip          text,
  request_id  text,
  prev_hash   text        NOT NULL,
  hash        text        NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_account ON audit_log (account_id, id) WHERE account_id IS NOT NULL;

-- The chain's head: the last line's id and hash (detects removed last lines), and the row appenders lock.
CREATE TABLE audit_chain_head (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  last_id bigint  NOT NULL,
  hash    text    NOT NULL
);
INSERT INTO audit_chain_head (one, last_id, hash) VALUES (true, 0, repeat('0', 64));

-- The canonical content of a line: its fields in a fixed order as one JSON array (jsonb's text form:
-- keys sorted, fixed spacing, so the same values always give the same text), the time in UTC to the
-- microsecond.
CREATE FUNCTION audit_line_content(l audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_array(
    l.id, to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), l.channel, l.actor_kind,
    l.actor_id, l.actor, l.account_id, l.action, l.target, l.details, l.before, l.after, l.ip, l.request_id
  )::text
$$;

CREATE FUNCTION audit_line_hash(prev_hash text, l audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || audit_line_content(l), 'UTF8')), 'hex')
$$;

CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head audit_chain_head;
BEGIN
  SELECT * INTO head FROM audit_chain_head WHERE one FOR UPDATE;
  NEW.id := head.last_id + 1;
  NEW.prev_hash := head.hash;
  NEW.hash := audit_line_hash(NEW.prev_hash, NEW);
  UPDATE audit_chain_head SET last_id = NEW.id, hash = NEW.hash WHERE one;
  RETURN NEW;
END;
$$;
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER audit_log_append_only
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();

-- The head moves only inside the chain trigger (trigger depth 2); never by a statement of its own.
CREATE FUNCTION audit_chain_head_moves_with_the_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the audit chain head moves only when a line is appended (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER audit_chain_head_guard
  BEFORE UPDATE OR DELETE ON audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION audit_chain_head_moves_with_the_chain();
CREATE TRIGGER audit_chain_head_no_truncate
  BEFORE TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_head_moves_with_the_chain();

-- The lines of web_audit_log, in their order, chained like new ones. Its lines without a user were made
-- with the admin key, whose fingerprint was not recorded then.
INSERT INTO audit_log (at, channel, actor_kind, actor_id, actor, account_id, action, target, details, ip)
SELECT l.at,
       CASE WHEN u.kind = 'customer' THEN 'dashboard' WHEN u.kind = 'operator' THEN 'console' ELSE 'admin' END,
       CASE WHEN u.kind IS NULL THEN 'admin-key' ELSE u.kind END,
       COALESCE(l.user_id::text, 'unrecorded'),
       l.actor,
       COALESCE(u.account_id, substring(l.target FROM '^account (\d+)$')::bigint),
       l.action,
       l.target,
       l.details,
       l.ip
FROM web_audit_log l
LEFT JOIN web_users u ON u.id = l.user_id
ORDER BY l.id;

DROP TABLE web_audit_log;

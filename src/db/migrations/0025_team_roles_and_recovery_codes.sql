-- Team roles (issue 28): each web user has a role that grants the permissions the dashboard's and
-- the console's routes declare (src/modules/web/permissions.ts). Users made before roles keep every
-- right they had: a customer becomes an owner of their account, an operator an admin.
ALTER TABLE web_users ADD COLUMN role text;
UPDATE web_users SET role = CASE kind WHEN 'customer' THEN 'owner' ELSE 'admin' END;
ALTER TABLE web_users ALTER COLUMN role SET NOT NULL;
ALTER TABLE web_users ADD CONSTRAINT web_users_role CHECK (
  (kind = 'customer' AND role IN ('owner', 'developer', 'finance', 'support', 'viewer'))
  OR (kind = 'operator' AND role IN ('admin', 'support'))
);

-- A teammate removed by an owner (or an operator by an admin) keeps their row, which the audit log
-- and the record of code reveals name, but loses their password, sessions and links; invited again,
-- the same row comes back.
ALTER TABLE web_users ADD COLUMN removed_at timestamptz;

-- The recovery codes of two-step sign-in: ten, made when it is turned on (and again on demand, the
-- older ones then deleted); each works once in place of a TOTP code. Only their SHA-256 is stored.
CREATE TABLE web_recovery_codes (
  user_id   bigint      NOT NULL REFERENCES web_users (id),
  code_hash text        NOT NULL,
  used_at   timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

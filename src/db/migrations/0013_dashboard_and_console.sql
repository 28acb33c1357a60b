-- The account dashboard and the operator console (issue 10): their users, invitations, sessions,
-- failed sign-ins (for the lock-out), the console's audit log and the record of code reveals.
-- A credential also remembers when it was last used (the last token issued for it).

ALTER TABLE credentials ADD COLUMN last_used_at timestamptz;

-- A person who signs in to a web page: a customer of one account (dashboard) or an operator (console).
-- password_hash is NULL until the invitation is accepted (scrypt, `scrypt$N$r$p$salt$hash`).
CREATE TABLE web_users (
  id            bigserial   PRIMARY KEY,
  kind          text        NOT NULL CHECK (kind IN ('customer', 'operator')),
  account_id    bigint      REFERENCES accounts (id),
  email         text        NOT NULL,
  password_hash text,
  created_at    timestamptz NOT NULL,
  CHECK ((kind = 'customer') = (account_id IS NOT NULL))
);
CREATE UNIQUE INDEX web_users_email ON web_users (kind, lower(email));

-- A one-time link that lets a user set a password; only its SHA-256 is stored.
CREATE TABLE web_invitations (
  token_hash text        PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES web_users (id),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);

-- A signed-in browser: the cookie holds the token, the row its SHA-256 and the CSRF token pages send back.
CREATE TABLE web_sessions (
  token_hash text        PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES web_users (id),
  csrf_token text        NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);

-- Failed sign-ins per e-mail, for the lock-out (so many in a window).
CREATE TABLE web_sign_in_failures (
  id    bigserial   PRIMARY KEY,
  kind  text        NOT NULL,
  email text        NOT NULL,
  ip    text,
  at    timestamptz NOT NULL
);
CREATE INDEX web_sign_in_failures_email ON web_sign_in_failures (kind, lower(email), at);

-- Every mutation made in the console: who, what, on what, when, from where.
CREATE TABLE web_audit_log (
  id         bigserial   PRIMARY KEY,
  user_id    bigint      REFERENCES web_users (id),
  actor      text        NOT NULL,
  action     text        NOT NULL,
  target     text,
  details    jsonb       NOT NULL DEFAULT '{}',
  ip         text,
  at         timestamptz NOT NULL
);
CREATE INDEX web_audit_log_at ON web_audit_log (at DESC);

-- Every reveal of a gift card order's codes in the dashboard.
CREATE TABLE web_code_reveals (
  id             bigserial   PRIMARY KEY,
  user_id        bigint      NOT NULL REFERENCES web_users (id),
  account_id     bigint      NOT NULL,
  environment    text        NOT NULL,
  transaction_id bigint      NOT NULL,
  ip             text,
  at             timestamptz NOT NULL
);

-- The operator console (issue 10), its last pieces.
--
-- 1. Top-up operators come from the data files (data/operators) or live's synced snapshot and have
--    no row of their own; the operator's status choice is kept here, by operator id, and the operator
--    catalogue applies it to every catalogue it serves (modules/topups/catalog/live-operators.ts).
CREATE TABLE topup_operator_statuses (
  operator_id integer     PRIMARY KEY,
  status      text        NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
  changed_at  timestamptz NOT NULL
);

-- 2. Optional TOTP (RFC 6238) for dashboard and console users. The secret is sealed at rest
--    (lib/sealed-text.ts); it is pending until confirmed with a code (totp_enabled), and the last
--    time step accepted is kept so that a code is never accepted twice.
ALTER TABLE web_users ADD COLUMN totp_secret text;
ALTER TABLE web_users ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE web_users ADD COLUMN totp_last_step bigint;

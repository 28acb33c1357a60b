-- One counter per kind of shared state that servers keep in memory (verified tokens, accounts, the
-- priced catalog answers). A change bumps its counter in the same database every server uses; each
-- server reads the counters a few times a second and drops what it holds when one moved, so a
-- revocation or an FX change reaches every server of a deployment within a second.
CREATE TABLE change_versions (
  topic      text        PRIMARY KEY,
  version    bigint      NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO change_versions (topic) VALUES ('auth'), ('catalog');

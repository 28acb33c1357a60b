-- Each key of the installation as it was when data was first protected with it: an HMAC-SHA256 of a
-- fixed text under the key (never the key itself). A start with another key (a file restored from the
-- wrong backup, servers of one deployment configured apart) is refused, naming the key, instead of
-- sealing new codes with it while every stored one answers 500 (src/runtime.ts, db/installation.ts).
CREATE TABLE key_checks (
  name        text PRIMARY KEY,
  check_value text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

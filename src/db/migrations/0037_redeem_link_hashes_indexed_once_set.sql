-- Issue 30: a redeem link's token hash is unique once it is set, and only then looked up (the redeem
-- page finds a link by it). The UNIQUE constraint of 0020 indexed every link, the new ones too, whose
-- hash is still null until the outbox renders their message: one index entry written per order for
-- nothing, and an index the planner took for "token_hash IS NULL" when the outbox stored a batch's
-- hashes, reading every link not yet sent (a bitmap of ~100k entries per batch after a burst of
-- orders). A partial unique index keeps the rule and the look-up, and holds only hashes that are set.
ALTER TABLE redeem_links DROP CONSTRAINT redeem_links_token_hash_key;
CREATE UNIQUE INDEX redeem_links_token_hash_key ON redeem_links (token_hash) WHERE token_hash IS NOT NULL;

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Db, fromPGlite } from '../../src/db/database.ts';
import { createChangeVersions } from '../../src/lib/change-versions.ts';
import { loadPgliteTemplate } from '../harness/templates.ts';
import { until } from '../harness/until.ts';

// When the in-memory caches may be trusted (`fresh()`), on the migrated embedded database. A poll that
// waits behind a long transaction on PGlite's one connection makes a shared deployment's process stale
// (another server's change could be unseen), but not the embedded database's only process, where every
// change is made, and told, in the process itself.
describe('change versions: freshness', () => {
  let db: Db;
  before(async () => {
    db = fromPGlite(await loadPgliteTemplate());
  });
  after(() => db.close());

  /** Holds the one connection for `ms` (a long transaction), returning when it is released. */
  const holdConnection = (ms: number) =>
    db.kysely.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, ms));
    });

  test('a shared database: stale once the poll has waited past staleAfterMs, fresh again after it', async () => {
    const changes = createChangeVersions(db.kysely, { pollMs: 20, staleAfterMs: 300 });
    changes.onChange('auth', () => undefined);
    // its first poll has read the counters (a few ms, longer on a loaded machine)
    await until('the first poll', async () => changes.fresh());
    const held = holdConnection(700);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(changes.fresh(), false, 'trusted while its poll could not read the counters');
    await held;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(changes.fresh(), true);
    changes.stop();
    assert.equal(changes.fresh(), false);
  });

  test('the sole user of its database stays fresh while its poll waits, and tells its own changes at once', async () => {
    const changes = createChangeVersions(db.kysely, { pollMs: 20, staleAfterMs: 300, soleUser: true });
    let told = 0;
    changes.onChange('auth', () => told++);
    const held = holdConnection(700);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(changes.fresh(), true);
    await held;
    await changes.changed('auth');
    assert.equal(told, 1, 'its own change is told at once');
    changes.stop();
    assert.equal(changes.fresh(), false, 'a stopped poller is never fresh');
  });
});

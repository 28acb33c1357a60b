import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { loadMigrations, type Migration, migrate } from '../../src/db/migrate.ts';
import { postgresForTests } from '../harness/server.ts';
import { createPostgresDatabase, loadPgliteTemplate } from '../harness/templates.ts';

// The migration runner and transactions, on both databases: scripts of several statements apply as
// one, a failing one leaves nothing behind, an edited one is refused.
function migration(version: string, name: string, text: string): Migration {
  return { version, name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
}

const probe = migration(
  '9990',
  'probe',
  `CREATE TABLE migration_probe (id int PRIMARY KEY, note text);
   INSERT INTO migration_probe VALUES (1, 'a; b');
   CREATE FUNCTION migration_probe_count() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM migration_probe; $$;`,
);
const broken = migration(
  '9991',
  'broken',
  `CREATE TABLE migration_broken (id int);
   SELECT 1 / 0;`,
);

async function tableExists(db: Db, table: string): Promise<boolean> {
  const r = await sql<{ found: boolean }>`SELECT to_regclass(${table}) IS NOT NULL AS found`.execute(
    db.kysely,
  );
  return r.rows[0].found;
}

async function appliedVersions(db: Db): Promise<string[]> {
  const r = await sql<{ version: string }>`SELECT version FROM schema_migrations ORDER BY version`.execute(
    db.kysely,
  );
  return r.rows.map((row) => row.version);
}

const databases: ('pglite' | 'postgres')[] = (await postgresForTests()) ? ['pglite', 'postgres'] : ['pglite'];

for (const kind of databases) {
  describe(`migrations and transactions on ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`, () => {
    let db: Db;
    let drop = async () => {};
    before(async () => {
      if (kind === 'pglite') {
        db = fromPGlite(await loadPgliteTemplate());
      } else {
        const database = await createPostgresDatabase();
        db = await openDatabase({ url: database.url, poolSize: 2 });
        drop = database.drop;
      }
    });
    after(async () => {
      await db.close();
      await drop();
    });

    test('a migrated database has nothing left to apply', async () => {
      assert.deepEqual(await migrate(db), []);
    });

    test('a new migration of several statements applies as one, with its row', async () => {
      const all = [...(await loadMigrations()), probe];
      assert.deepEqual(await migrate(db, all), ['9990_probe']);
      const rows = await sql<{ note: string; n: number }>`
        SELECT note, migration_probe_count()::int AS n FROM migration_probe`.execute(db.kysely);
      assert.deepEqual(rows.rows, [{ note: 'a; b', n: 1 }]);
      assert.ok((await appliedVersions(db)).includes('9990'));
      assert.deepEqual(await migrate(db, all), []);
    });

    test('a failing migration leaves neither its changes nor its row, and the lock is released', async () => {
      const all = [...(await loadMigrations()), probe, broken];
      await assert.rejects(migrate(db, all), /division by zero/);
      assert.equal(await tableExists(db, 'migration_broken'), false);
      assert.ok(!(await appliedVersions(db)).includes('9991'));
      const locks = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`.execute(db.kysely);
      assert.equal(locks.rows[0].n, 0);
    });

    test('a migration edited after it was applied is refused', async () => {
      const edited = { ...probe, checksum: 'edited' };
      await assert.rejects(
        migrate(db, [...(await loadMigrations()), edited]),
        /was changed after it was applied/,
      );
    });

    test('a transaction commits all or nothing, and other queries wait for it', async () => {
      await assert.rejects(
        db.kysely.transaction().execute(async (trx) => {
          await sql`INSERT INTO migration_probe VALUES (2, 'rolled back')`.execute(trx);
          throw new Error('abort');
        }),
        /abort/,
      );
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted!: () => void;
      const rowWritten = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const writer = db.kysely.transaction().execute(async (trx) => {
        await sql`INSERT INTO migration_probe VALUES (3, 'committed')`.execute(trx);
        inserted();
        await held;
      });
      // Read while the writer's transaction is open (its row written, not committed): it must not see
      // the uncommitted row. PostgreSQL reads the last committed state at once, so the writer is
      // released only after the read; PGlite has one session, so the read queues behind the
      // transaction and sees its row once it commits. Either way never the rolled-back row.
      await rowWritten;
      const reader = sql<{ id: number }>`SELECT id FROM migration_probe ORDER BY id`.execute(db.kysely);
      let seen: number[];
      if (kind === 'pglite') {
        setTimeout(release, 50);
        await writer;
        seen = (await reader).rows.map((r) => r.id);
      } else {
        seen = (await reader).rows.map((r) => r.id);
        release();
        await writer;
      }
      assert.deepEqual(seen, kind === 'pglite' ? [1, 3] : [1]);
      const after = await sql<{ id: number }>`SELECT id FROM migration_probe ORDER BY id`.execute(db.kysely);
      assert.deepEqual(
        after.rows.map((r) => r.id),
        [1, 3],
      );
    });
  });
}

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import type { Db } from './database.ts';

/**
 * Applies the checked-in SQL migrations (`src/db/migrations/NNNN_name.sql`) in order, each in its
 * own transaction together with its row in `schema_migrations`. A migration already applied with
 * different content is refused: migrations are history and are never edited after they land.
 * Several servers starting at once on one PostgreSQL serialise on an advisory lock held by the one
 * session that runs them all.
 */
export const MIGRATIONS_DIR = join(PROJECT_ROOT, 'src', 'db', 'migrations');
/** The advisory lock the migrations run under (a restore takes it too). */
export const MIGRATION_LOCK_KEY = 42_012_026;
const SCHEMA_MIGRATIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
          version text PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now())`;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(join(dir, file), 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        sql: text,
        checksum: createHash('sha256').update(text).digest('hex'),
      };
    }),
  );
}

/** Applies what is not applied yet; returns the names of the migrations it ran. */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return db.kysely.connection().execute(async (session) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(session);
    try {
      await sql.raw(SCHEMA_MIGRATIONS).execute(session);
      const applied = await sql<{ version: string; checksum: string }>`
        SELECT version, checksum FROM schema_migrations WHERE version <> ${''}`.execute(session);
      const done = new Map(applied.rows.map((r) => [r.version, r.checksum]));
      const ran: string[] = [];
      for (const m of all) {
        const previous = done.get(m.version);
        if (previous !== undefined) {
          if (previous !== m.checksum) {
            throw new Error(
              `migration ${m.version}_${m.name} was changed after it was applied; add a new migration instead`,
            );
          }
          continue;
        }
        const script = `BEGIN;\n${withRecord(m)};\nCOMMIT;`;
        // A migration is several statements: node-postgres sends a query without parameters as one
        // simple-protocol script; Kysely's PGlite dialect sends one statement per query, so PGlite
        // runs the script with exec (its single session is the one holding the lock).
        if (db.pglite) await db.pglite.exec(script);
        else await sql.raw(script).execute(session);
        ran.push(`${m.version}_${m.name}`);
      }
      return ran;
    } catch (error) {
      await sql
        .raw('ROLLBACK')
        .execute(session)
        .catch(() => undefined);
      throw error;
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(session);
    }
  });
}

/** A migration's statements followed by its row in `schema_migrations`. */
function withRecord(m: Migration): string {
  return `${m.sql}\n;\nINSERT INTO schema_migrations (version, name, checksum) VALUES ('${m.version}', '${m.name}', '${m.checksum}')`;
}

/**
 * `migrations` as one script without transaction control, for a caller that runs it inside a
 * transaction of its own: a restore creates the schema and loads the rows in one transaction, so a
 * failed restore leaves the database as empty as it found it.
 */
export function migrationsScript(migrations: Migration[]): string {
  return [SCHEMA_MIGRATIONS, ...migrations.map(withRecord)].join(';\n');
}

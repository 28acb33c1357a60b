import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { loadMigrations } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { openRuntime } from '../../src/runtime.ts';

/**
 * Migrated and seeded database templates, made once and reused by every test file:
 * - PGlite: a fresh instance costs ~5 s; one loaded from the dump of a migrated one ~1-2 s. The dump
 *   is kept uncompressed (~40 MB): gunzipping it cost each test file ~0.5-0.9 s more.
 * - PostgreSQL: `CREATE DATABASE ... TEMPLATE airgift_tpl_<hash>` copies a migrated database.
 * Each is prepared exactly as a first start prepares a database (`openRuntime`: migrations, then the
 * seed catalog and FX rates), so a test server's own start finds the seeds there and skips them.
 * The name of each carries a hash of the migrations and the seed files, so a change makes new ones.
 */
export const CACHE_DIR = join(import.meta.dirname, '..', '..', '.test-cache');
export const ADMIN_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SEED_DIRS = ['seed', 'operators'].map((d) => join(import.meta.dirname, '..', '..', 'data', d));

export async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await loadMigrations()) hash.update(m.version).update(m.checksum);
  for (const dir of SEED_DIRS) {
    if (!existsSync(dir)) continue;
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
      hash.update(file).update(await readFile(join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

/** Migrates and seeds `db` the way a first start does. */
async function prepare(db: Db) {
  const config = loadConfig({
    PUBLIC_URL: 'https://localhost',
    ADMIN_KEY: 'template-admin-key-0123456789',
    TOKEN_SIGNING_KEY: 'template-signing-key-0123456789abcdef',
    DATA_DIR: join(CACHE_DIR, 'template-data'),
    LOG_LEVEL: 'silent',
  });
  await openRuntime(config, systemClock, db);
}

export async function pgliteDumpPath(): Promise<string> {
  return join(CACHE_DIR, `pglite-${await migrationsHash()}.tar`);
}

export async function ensurePgliteTemplate(): Promise<string> {
  const path = await pgliteDumpPath();
  if (existsSync(path)) return path;
  await mkdir(CACHE_DIR, { recursive: true });
  const pglite = await PGlite.create();
  const db = fromPGlite(pglite);
  await prepare(db);
  const dump = await pglite.dumpDataDir('none');
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
  await rename(tmp, path);
  await db.close();
  return path;
}

export async function loadPgliteTemplate(): Promise<PGlite> {
  const dump = await readFile(await ensurePgliteTemplate());
  return PGlite.create({ loadDataDir: new Blob([dump]), parsers: { 20: (v: string) => Number(v) } });
}

export async function postgresTemplateName(): Promise<string> {
  return `airgift_tpl_${await migrationsHash()}`;
}

/** True when the PostgreSQL server of this machine (or TEST_DATABASE_URL) answers. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function ensurePostgresTemplate(): Promise<string> {
  const name = await postgresTemplateName();
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return name;
    const building = `${name}_build_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    const db = await openDatabase({ url: withDatabase(ADMIN_PG_URL, building), poolSize: 1 });
    await prepare(db);
    await db.close();
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`).catch(async (error) => {
      // Another process made the same template meanwhile.
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) throw error;
    });
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
    return name;
  } finally {
    await admin.end();
  }
}

/** A new database copied from the template; returns its URL and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = await ensurePostgresTemplate();
  const name = `airgift_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  return {
    url: withDatabase(ADMIN_PG_URL, name),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

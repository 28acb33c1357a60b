import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { withDefaultUser } from '../../db/database.ts';
import { loadMigrations, type Migration, migrationsScript } from '../../db/migrate.ts';
import { openPglite } from '../../db/pglite.ts';
import { lazyPackage } from '../../lib/lazy-package.ts';
import {
  type BackupEntry,
  type BackupHeader,
  DamagedBackupError,
  readBackup,
  summarizeBackup,
} from './backup-format.ts';
import { type KeyOutcome, planKeys, writeKeys } from './backup-keys.ts';
import {
  enableTriggers,
  loadRows,
  lockAgainstMigrations,
  prepareLoad,
  relationCount,
  type SqlSession,
  sequenceNames,
  setSequence,
} from './backup-repository.ts';

/**
 * `airgift restore --from FILE`, with the server stopped: a backup into an empty target, the
 * embedded database of an empty DATA_DIR or (DATABASE_URL) an empty PostgreSQL database. One
 * transaction on the target runs this code's migrations up to the backup's, loads every row with the
 * tables' user triggers off (the webhook outbox must not hear of old changes again), sets the
 * sequences and writes the key files. The whole file is read and checked once before the target is
 * opened, and the transaction commits only after its second reading checked out too.
 * PGlite's database is built in a scratch directory renamed into place at the end, so a failed
 * restore leaves DATA_DIR as it was. The next start migrates the rest as usual.
 *
 * @example
 * const result = await restoreBackup({ file: 'airgift.backup.gz', target: { kind: 'pglite', dataDir, sharedBuffers: '16MB' }, env: process.env });
 */
export type RestoreTarget =
  | { kind: 'pglite'; dataDir: string; sharedBuffers: string }
  | { kind: 'postgres'; url: string; dataDir: string };

export interface RestoreResult {
  database: 'pglite' | 'postgres';
  /** The embedded database's directory, or the PostgreSQL URL without its password. */
  location: string;
  source: Pick<BackupHeader, 'createdAt' | 'database' | 'serverVersion'>;
  migrations: { restoredUpTo: string; appliedByNextStart: string[] };
  tables: number;
  rows: number;
  keys: KeyOutcome[];
}

/** A restore refused before anything was written (a target not empty, a newer backup, a key). */
export class RestoreRefusedError extends Error {}

const nodePostgres = lazyPackage<typeof pg>('pg');

export async function restoreBackup(o: {
  file: string;
  target: RestoreTarget;
  env: Record<string, string | undefined>;
}): Promise<RestoreResult> {
  const given = statSync(o.file, { throwIfNoEntry: false });
  if (!given) throw new RestoreRefusedError(`${o.file} does not exist`);
  if (!given.isFile()) throw new RestoreRefusedError(`${o.file} is not a file: name the backup file`);
  // Read through once before the target is touched: gzip's check sees a changed byte only at the
  // end, and a changed byte in a row could otherwise reach the database first as a SQL error.
  await summarizeBackup(o.file);
  const entries = readBackup(o.file);
  try {
    const first = await entries.next();
    if (first.done || first.value.kind !== 'header') throw new DamagedBackupError('it has no header');
    const header = first.value.header;
    const migrations = migrationsOf(header, await loadMigrations());
    const keys = await planKeys(o.target.dataDir, header.keys, o.env);
    if (keys.conflicts.length > 0) throw new RestoreRefusedError(keys.conflicts.join('\n'));
    const load = (session: SqlSession) =>
      loadInto(session, entries, migrations.restored, () =>
        writeKeys(o.target.dataDir, header.keys, keys.outcomes),
      );
    const counts =
      o.target.kind === 'pglite' ? await intoPglite(o.target, load) : await intoPostgres(o.target.url, load);
    return {
      database: o.target.kind,
      location: o.target.kind === 'pglite' ? join(o.target.dataDir, 'pgdata') : hidePassword(o.target.url),
      source: { createdAt: header.createdAt, database: header.database, serverVersion: header.serverVersion },
      migrations: {
        restoredUpTo: migrations.restored.at(-1)?.version ?? '(none)',
        appliedByNextStart: migrations.later.map((m) => `${m.version}_${m.name}`),
      },
      ...counts,
      keys: keys.outcomes,
    };
  } finally {
    await entries.return(undefined);
  }
}

/**
 * This code's migrations that the backup's database had (each the same text), and the ones it did
 * not have yet. A migration this code does not know means the backup comes from newer code.
 */
function migrationsOf(header: BackupHeader, known: Migration[]) {
  const byVersion = new Map(known.map((m) => [m.version, m]));
  const unknown = header.migrations.filter((m) => !byVersion.has(m.version));
  if (unknown.length > 0) {
    throw new RestoreRefusedError(
      `the backup was made by newer airgift code: its database has migration${unknown.length > 1 ? 's' : ''} ${unknown
        .map((m) => `${m.version}_${m.name}`)
        .join(', ')}, which this code does not have. Restore it with that version of airgift (or newer).`,
    );
  }
  const changed = header.migrations.filter((m) => byVersion.get(m.version)?.checksum !== m.checksum);
  if (changed.length > 0) {
    throw new RestoreRefusedError(
      `migration ${changed.map((m) => `${m.version}_${m.name}`).join(', ')} of the backup differs from this code's: restore it with the airgift version that made it`,
    );
  }
  const inBackup = new Set(header.migrations.map((m) => m.version));
  return {
    restored: known.filter((m) => inBackup.has(m.version)),
    later: known.filter((m) => !inBackup.has(m.version)),
  };
}

/** The transaction's work: schema, rows, sequences, checks; `beforeCommit` writes the keys. */
async function loadInto(
  session: SqlSession,
  entries: AsyncGenerator<BackupEntry>,
  migrations: Migration[],
  beforeCommit: () => Promise<void>,
): Promise<{ tables: number; rows: number }> {
  await lockAgainstMigrations(session);
  const relations = await relationCount(session);
  if (relations > 0) {
    throw new RestoreRefusedError(
      `the target database is not empty (${relations} ${relations === 1 ? 'table, sequence or view' : 'tables, sequences or views'}): restore into a new, empty database`,
    );
  }
  await session.exec(migrationsScript(migrations));
  const tables = await prepareLoad(session);
  const sequences = new Set(await sequenceNames(session));
  let rows = 0;
  let ended = false;
  for await (const entry of entries) {
    if (entry.kind === 'rows') {
      if (!tables.includes(entry.table))
        throw new DamagedBackupError(`it has rows of a table ${entry.table} that its migrations do not make`);
      const loaded = await loadRows(session, entry.table, entry.rowsJson);
      if (loaded !== entry.count)
        throw new DamagedBackupError(`a chunk of ${entry.table} holds ${loaded} rows, not ${entry.count}`);
      rows += loaded;
    } else if (entry.kind === 'sequence') {
      if (!sequences.has(entry.value.sequence))
        throw new DamagedBackupError(
          `it sets a sequence ${entry.value.sequence} that its migrations do not make`,
        );
      await setSequence(session, entry.value);
    } else if (entry.kind === 'end') {
      const missing = tables.filter((t) => !(t in entry.rows));
      if (missing.length > 0)
        throw new DamagedBackupError(`it does not cover the tables ${missing.join(', ')}`);
      ended = true;
    }
  }
  if (!ended) throw new DamagedBackupError('it has no end line');
  await enableTriggers(session, tables);
  await beforeCommit();
  return { tables: tables.length, rows };
}

async function intoPglite(
  target: Extract<RestoreTarget, { kind: 'pglite' }>,
  load: (session: SqlSession) => Promise<{ tables: number; rows: number }>,
) {
  const pgdata = join(target.dataDir, 'pgdata');
  if (existsSync(pgdata) && (await readdir(pgdata)).length > 0) {
    throw new RestoreRefusedError(
      `${pgdata} holds a database already: restore into an empty DATA_DIR (or move pgdata away first)`,
    );
  }
  const scratch = `${pgdata}.restore-${process.pid}`;
  await mkdir(target.dataDir, { recursive: true });
  await rm(scratch, { recursive: true, force: true });
  let pglite: PGlite | null = null;
  try {
    pglite = await openPglite(scratch, { sharedBuffers: target.sharedBuffers });
    const db = pglite;
    const counts = await db.transaction((tx) =>
      load({
        query: async (text, params) => (await tx.query(text, params)).rows as never,
        exec: async (script) => {
          await tx.exec(script);
        },
      }),
    );
    await db.close();
    pglite = null;
    // The commit of a PGlite restore: a start finds either no database or the whole one.
    await rename(scratch, pgdata).catch((error) => {
      throw new RestoreRefusedError(
        `${pgdata} appeared during the restore (${error.code}): is a server running?`,
      );
    });
    return counts;
  } finally {
    if (pglite && !pglite.closed) await pglite.close().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

async function intoPostgres(
  url: string,
  load: (session: SqlSession) => Promise<{ tables: number; rows: number }>,
) {
  const client = new (nodePostgres().Client)({ connectionString: withDefaultUser(url) });
  await client.connect();
  try {
    await client.query('BEGIN');
    try {
      const counts = await load({
        query: async (text, params) => (await client.query(text, params)).rows,
        exec: async (script) => {
          await client.query(script);
        },
      });
      await client.query('COMMIT');
      return counts;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await client.end();
  }
}

function hidePassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

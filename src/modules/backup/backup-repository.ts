import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { MIGRATION_LOCK_KEY } from '../../db/migrate.ts';
import type { Database } from '../../db/schema.ts';
import type { SequenceValue } from './backup-format.ts';

/**
 * Every statement of backups and restores. They run on a `SqlSession`: the backup's read-only
 * transaction through Kysely (inside the server), the restore's one transaction straight on the
 * target (PGlite's `transaction`, or a node-postgres client), because a restore also runs the
 * migrations' multi-statement scripts in that transaction, which Kysely's PGlite dialect cannot.
 * Tables and sequences are the current schema's, named by the catalog (never by the file alone).
 */
export interface SqlSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** A script of several statements without parameters (the migrations). */
  exec(script: string): Promise<void>;
}

/** A session on a Kysely transaction (the server's side). */
export function kyselySession(trx: Transaction<Database> | Kysely<Database>): SqlSession {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await trx.executeQuery<T>(CompiledQuery.raw(text, params))).rows;
    },
    async exec() {
      throw new Error('scripts are not run through Kysely');
    },
  };
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A catalog name as an identifier; only plain lower-case names are ever taken. */
export function identifier(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a plain name: ${name}`);
  return `"${name}"`;
}

/** The tables that hold the data: every table of the schema but the migrations' own record. */
async function tables(session: SqlSession): Promise<string[]> {
  const rows = await session.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
        AND c.relname <> 'schema_migrations'
      ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/**
 * The tables in an order their foreign keys allow loading in (a referenced table before the tables
 * that reference it), alphabetical where they do not care.
 */
export async function tablesInLoadOrder(session: SqlSession): Promise<string[]> {
  const names = await tables(session);
  const edges = await session.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace AND c.oid <> p.oid`,
  );
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter(
      (n) => !placed.has(n) && [...(parents.get(n) ?? [])].every((p) => placed.has(p)),
    );
    if (ready.length === 0) throw new Error('the foreign keys of the schema form a cycle');
    for (const n of ready) {
      ordered.push(n);
      placed.add(n);
    }
  }
  return ordered;
}

/** Makes this transaction one consistent, read-only snapshot; the first statement of a backup. */
export async function beginSnapshot(session: SqlSession): Promise<void> {
  await session.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}

export async function serverVersion(session: SqlSession): Promise<string> {
  const [row] = await session.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  return row.v;
}

export async function appliedMigrations(session: SqlSession) {
  return session.query<{ version: string; name: string; checksum: string }>(
    'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
  );
}

/**
 * A table's rows, `size` at a time, each as PostgreSQL's own JSON text of the row, through a cursor
 * (PGlite hands over a whole result at once: a cursor keeps the memory to one chunk).
 */
export async function* tableRows(session: SqlSession, table: string, size: number): AsyncGenerator<string[]> {
  await session.query(
    `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${identifier(table)} t`,
  );
  try {
    for (;;) {
      const rows = await session.query<{ r: string }>(`FETCH ${Number(size)} FROM backup_rows`);
      if (rows.length === 0) return;
      yield rows.map((row) => row.r);
    }
  } finally {
    await session.query('CLOSE backup_rows');
  }
}

/** Every sequence's position (read last: a sequence is not part of the snapshot and only grows). */
export async function sequenceValues(session: SqlSession): Promise<SequenceValue[]> {
  const out: SequenceValue[] = [];
  for (const name of await sequenceNames(session)) {
    const [row] = await session.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${identifier(name)}`,
    );
    out.push({ sequence: name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return out;
}

// --- the restore's side ---

/** Relations of the current schema: an empty database has none. */
export async function relationCount(session: SqlSession): Promise<number> {
  const [row] = await session.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
  );
  return Number(row.n);
}

/** Holds off a server that starts meanwhile (its migrations wait on this lock) until the commit. */
export async function lockAgainstMigrations(session: SqlSession): Promise<void> {
  await session.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
}

/** Empties the tables (rows the migrations seeded) and stops their user triggers until `enableTriggers`. */
export async function prepareLoad(session: SqlSession): Promise<string[]> {
  const names = await tables(session);
  for (const n of names) await session.query(`ALTER TABLE ${identifier(n)} DISABLE TRIGGER USER`);
  await session.query(`TRUNCATE ${names.map(identifier).join(', ')}`);
  return names;
}

export async function enableTriggers(session: SqlSession, names: string[]): Promise<void> {
  // The references checked at commit (the stock's to its orders, migration 0031) are checked now:
  // a table with such checks pending cannot be altered.
  await session.query('SET CONSTRAINTS ALL IMMEDIATE');
  for (const n of names) await session.query(`ALTER TABLE ${identifier(n)} ENABLE TRIGGER USER`);
}

/** Inserts one chunk (a JSON array of row objects); returns how many rows went in. */
export async function loadRows(session: SqlSession, table: string, rowsJson: string): Promise<number> {
  const t = identifier(table);
  const [row] = await session.query<{ n: string | number }>(
    `WITH loaded AS (INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, $1::json) RETURNING 1)
     SELECT count(*) AS n FROM loaded`,
    [rowsJson],
  );
  return Number(row.n);
}

export async function setSequence(session: SqlSession, value: SequenceValue): Promise<void> {
  await session.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
    identifier(value.sequence),
    value.lastValue,
    value.isCalled,
  ]);
}

/** The current schema's sequences (the restore checks the backup set each one). */
export async function sequenceNames(session: SqlSession): Promise<string[]> {
  const rows = await session.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'S' ORDER BY relname`,
  );
  return rows.map((r) => r.name);
}

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * The backup file: gzip'd JSON lines, one object a line, our own format (logical, so a backup of
 * PGlite's PostgreSQL 17 restores into PostgreSQL 15 and the other way round):
 *
 * ```
 * {"format":"airgift-backup","version":1,"createdAt":…,"database":"pglite","migrations":[…],"keys":{…}}
 * {"table":"accounts","rows":[{…row_to_json…},…]}          one line per chunk, tables in load order
 * {"sequence":"accounts_id_seq","lastValue":"12","isCalled":true}
 * {"end":true,"rows":{"accounts":12,…}}                   the row count of every table
 * ```
 *
 * Rows are PostgreSQL's own `row_to_json` text, never parsed in Node (a numeric keeps every digit)
 * and loaded back with `json_populate_recordset`; a chunk line is exactly
 * `{"table":"<name>","rows":[…]}`, so its rows are sliced out of the line as text. The last line
 * counts every table's rows: a file cut short or changed in between is told from a whole one.
 */
export const BACKUP_FORMAT = 'airgift-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** Where a key of the source installation is, for the restore. */
export type KeySource =
  /** a file of its DATA_DIR: the text is in the backup */
  | { source: 'file'; value: string }
  /** its environment variable: not in the backup */
  | { source: 'environment'; variable: string }
  /** left out on request (`--without-keys`) */
  | { source: 'left out' }
  /** no such file was made yet (the card codes key is made when the first code is sealed) */
  | { source: 'none' };

export type KeyName = 'cardCodes' | 'tokenSigning' | 'admin';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The database the backup was read from. */
  database: 'pglite' | 'postgres';
  /** PostgreSQL's `server_version` of that database, for the record. */
  serverVersion: string;
  /** Every migration applied to it, in order: the restore brings an empty database to exactly these. */
  migrations: { version: string; name: string; checksum: string }[];
  keys: Record<KeyName, KeySource>;
}

export interface SequenceValue {
  sequence: string;
  /** A bigint, as text. */
  lastValue: string;
  isCalled: boolean;
}

/** What a restore reads from a file, line by line. */
export type BackupEntry =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'rows'; table: string; rowsJson: string; count: number }
  | { kind: 'sequence'; value: SequenceValue }
  | { kind: 'end'; rows: Record<string, number> };

/** The file is not a whole backup of this format (truncated, changed, or something else). */
export class DamagedBackupError extends Error {}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A chunk line of `table`, from its rows' JSON texts (each one `row_to_json` of a row). */
export function rowsLine(table: string, rowTexts: string[]): string {
  return `{"table":${JSON.stringify(table)},"rows":[${rowTexts.join(',')}]}\n`;
}

export function jsonLine(value: BackupHeader | SequenceValue | { end: true; rows: Record<string, number> }) {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Reads a backup file entry by entry, checking as it goes: the header first, known line shapes,
 * tables and sequences with plain names, the end line last with every table's row count. Any
 * departure throws DamagedBackupError; gzip's own check catches changed bytes.
 *
 * @example
 * for await (const entry of readBackup('airgift.backup')) if (entry.kind === 'rows') load(entry);
 */
export async function* readBackup(path: string): AsyncGenerator<BackupEntry> {
  const file = createReadStream(path);
  const gunzip = createGunzip();
  // pipe() does not pass the file's errors on (a directory, no permission): through gunzip they
  // reach the loop below instead of ending the process as an unhandled 'error' event
  file.on('error', (error) => gunzip.destroy(error));
  const lines = createInterface({ input: file.pipe(gunzip), crlfDelay: Infinity });
  const counted = new Map<string, number>();
  let number = 0;
  let ended = false;
  try {
    for await (const line of lines) {
      number++;
      if (ended) throw new DamagedBackupError(`line ${number} follows the end line`);
      if (number === 1) {
        yield { kind: 'header', header: parseHeader(line) };
        continue;
      }
      const rows = /^\{"table":"([a-z_][a-z0-9_]*)","rows":(\[.*\])\}$/s.exec(line);
      if (rows) {
        const count = countRows(rows[2]);
        counted.set(rows[1], (counted.get(rows[1]) ?? 0) + count);
        yield { kind: 'rows', table: rows[1], rowsJson: rows[2], count };
        continue;
      }
      const value = parseLine(line, number);
      if ('sequence' in value) {
        if (!NAME.test(String(value.sequence)) || !/^-?\d+$/.test(String(value.lastValue)))
          throw new DamagedBackupError(`line ${number}: not a sequence value`);
        yield { kind: 'sequence', value: value as unknown as SequenceValue };
      } else if (value.end === true && typeof value.rows === 'object' && value.rows !== null) {
        const rowsByTable = value.rows as Record<string, number>;
        for (const [table, n] of Object.entries(rowsByTable)) {
          if ((counted.get(table) ?? 0) !== n)
            throw new DamagedBackupError(
              `table ${table}: the end line counts ${n} rows, the file holds ${counted.get(table) ?? 0}`,
            );
        }
        for (const table of counted.keys()) {
          if (!(table in rowsByTable)) throw new DamagedBackupError(`table ${table} is not in the end line`);
        }
        ended = true;
        yield { kind: 'end', rows: rowsByTable };
      } else throw new DamagedBackupError(`line ${number} is not a line of an airgift backup`);
    }
  } catch (error) {
    if (error instanceof DamagedBackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw error;
    // zlib: "unexpected end of file", "incorrect header check", "invalid distance too far back"...
    throw new DamagedBackupError(`${(error as Error).message} (after line ${number})`);
  } finally {
    lines.close();
    // Ended early (a damaged line, or the reader stopped): stop reading, and let gzip's own check of
    // the rest, still under way, fail with no one to tell (else an uncaught 'error' event).
    gunzip.on('error', () => undefined);
    file.destroy();
    gunzip.destroy();
  }
  if (number === 0) throw new DamagedBackupError('the file is empty');
  if (!ended) throw new DamagedBackupError(`it ends after line ${number}, before its end line: cut short`);
}

function parseLine(line: string, number: number): Record<string, unknown> {
  try {
    const value = JSON.parse(line);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  throw new DamagedBackupError(`line ${number} is not JSON`);
}

function parseHeader(line: string): BackupHeader {
  let header: BackupHeader;
  try {
    header = JSON.parse(line);
  } catch {
    throw new DamagedBackupError('its first line is not the header of an airgift backup');
  }
  if (header?.format !== BACKUP_FORMAT)
    throw new DamagedBackupError('its first line is not the header of an airgift backup');
  if (header.version !== BACKUP_FORMAT_VERSION)
    throw new DamagedBackupError(
      `it is format version ${header.version}; this airgift reads version ${BACKUP_FORMAT_VERSION}`,
    );
  if (!Array.isArray(header.migrations) || typeof header.keys !== 'object')
    throw new DamagedBackupError('its header lacks the migrations or the keys');
  return header;
}

/**
 * The rows of a chunk's JSON array, counted without parsing them: top-level commas, outside
 * strings. A chunk whose brackets or quotes do not balance is damaged.
 */
function countRows(array: string): number {
  let depth = 0;
  let count = 0;
  let inString = false;
  for (let i = 0; i < array.length; i++) {
    const c = array.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      depth++;
      if (depth === 2 && c === 123) count++;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
    if (depth < 0) break;
  }
  if (depth !== 0 || inString) throw new DamagedBackupError('a chunk of rows is not whole JSON');
  return count;
}

/** What a backup file holds, without the keys' text: read through to the end, so it is also checked. */
export interface BackupSummary {
  createdAt: string;
  database: BackupHeader['database'];
  serverVersion: string;
  /** The last migration applied to the backed-up database. */
  migration: string;
  keys: Record<KeyName, KeySource['source']>;
  tables: number;
  rows: number;
}

export async function summarizeBackup(path: string): Promise<BackupSummary> {
  let header: BackupHeader | null = null;
  let tables = 0;
  let rows = 0;
  for await (const entry of readBackup(path)) {
    if (entry.kind === 'header') header = entry.header;
    else if (entry.kind === 'end') {
      tables = Object.keys(entry.rows).length;
      rows = Object.values(entry.rows).reduce((a, b) => a + b, 0);
    }
  }
  if (!header) throw new DamagedBackupError('it has no header');
  const last = header.migrations.at(-1);
  return {
    createdAt: header.createdAt,
    database: header.database,
    serverVersion: header.serverVersion,
    migration: last ? `${last.version}_${last.name}` : '(none)',
    keys: Object.fromEntries(
      Object.entries(header.keys).map(([k, v]) => [k, v.source]),
    ) as BackupSummary['keys'],
    tables,
    rows,
  };
}

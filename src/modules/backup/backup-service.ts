import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { type FileHandle, open, readdir, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupHeader,
  jsonLine,
  rowsLine,
} from './backup-format.ts';
import { keysForBackup } from './backup-keys.ts';
import {
  appliedMigrations,
  beginSnapshot,
  kyselySession,
  sequenceValues,
  serverVersion,
  tableRows,
  tablesInLoadOrder,
} from './backup-repository.ts';

/**
 * A consistent backup of the running server (both databases): ONE `REPEATABLE READ READ ONLY`
 * transaction reads every table and sequence into a temporary file of DATA_DIR (disk only), then
 * commits; only then does anyone send it over the network (the route streams it, gzip'd on the way,
 * and the file is gone once opened). So the database, and PGlite's one connection, is held for the
 * time it takes to read the data and write it to the local disk, never for a client's download.
 *
 * @example
 * const backup = await backups.write({ withoutKeys: false });
 * reply.send((await backup.open()).pipe(createGzip()));
 */
export interface BackupStats {
  tables: number;
  rows: number;
  /** Bytes of the uncompressed file. */
  bytes: number;
  /** How long the read transaction lasted: what other database work waited on PGlite. */
  heldMs: number;
}

export interface WrittenBackup {
  stats: BackupStats;
  createdAt: Date;
  /** Opens the file for reading and deletes its name at once (the open stream keeps the data). */
  open(): Promise<ReadStream>;
  /** Deletes the file when it is not going to be opened (a failed answer). */
  discard(): Promise<void>;
}

export interface BackupDeps {
  db: Db;
  config: Pick<Config, 'dataDir' | 'cardCodesKey' | 'tokenSigningKey' | 'adminKey'>;
  clock: Clock;
  /** Rows per chunk line (and per FETCH). */
  chunkRows?: number;
}

/** A temporary file no backup still uses: a process killed while writing one left it behind. */
const STALE_MS = 24 * 3600_000;
const TEMP_FILE = /^backup-\d+-[0-9a-f]+\.tmp$/;

export function createBackupService(deps: BackupDeps) {
  const chunkRows = deps.chunkRows ?? 5000;

  async function removeStaleFiles() {
    const names = await readdir(deps.config.dataDir).catch(() => [] as string[]);
    for (const name of names.filter((n) => TEMP_FILE.test(n))) {
      const path = join(deps.config.dataDir, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_MS) await rm(path, { force: true });
    }
  }

  return {
    async write(options: { withoutKeys: boolean }): Promise<WrittenBackup> {
      await removeStaleFiles();
      // The keys are files: read before the transaction, which is for the database alone.
      const keys = await keysForBackup(deps.config, options.withoutKeys);
      const path = join(deps.config.dataDir, `backup-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
      const file = await open(path, 'wx', 0o600);
      const createdAt = deps.clock.now();
      let stats: BackupStats;
      try {
        stats = await deps.db.kysely.transaction().execute(async (trx) => {
          const started = performance.now();
          const session = kyselySession(trx);
          await beginSnapshot(session);
          const header: BackupHeader = {
            format: BACKUP_FORMAT,
            version: BACKUP_FORMAT_VERSION,
            createdAt: createdAt.toISOString(),
            database: deps.db.kind,
            serverVersion: await serverVersion(session),
            migrations: await appliedMigrations(session),
            keys,
          };
          const out = lineWriter(file);
          await out.write(jsonLine(header));
          const counts: Record<string, number> = {};
          let rows = 0;
          const tables = await tablesInLoadOrder(session);
          for (const table of tables) {
            counts[table] = 0;
            for await (const chunk of tableRows(session, table, chunkRows)) {
              await out.write(rowsLine(table, chunk));
              counts[table] += chunk.length;
              rows += chunk.length;
            }
          }
          for (const value of await sequenceValues(session)) await out.write(jsonLine(value));
          await out.write(jsonLine({ end: true, rows: counts }));
          await out.flush();
          return { tables: tables.length, rows, bytes: out.bytes, heldMs: performance.now() - started };
        });
        await file.close();
      } catch (error) {
        await file.close().catch(() => undefined);
        await rm(path, { force: true });
        throw error;
      }
      return {
        stats,
        createdAt,
        async open() {
          const stream = createReadStream(path);
          await new Promise<void>((resolve, reject) => {
            stream.once('open', () => resolve());
            stream.once('error', reject);
          });
          await unlink(path);
          return stream;
        },
        discard: () => rm(path, { force: true }),
      };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;

/** Lines gathered into writes of about a megabyte: a chunk line is often smaller. */
function lineWriter(file: FileHandle) {
  let pending: string[] = [];
  let pendingLength = 0;
  let bytes = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const buffer = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingLength = 0;
    bytes += buffer.length;
    await file.write(buffer);
  };
  return {
    async write(line: string) {
      pending.push(line);
      pendingLength += line.length;
      if (pendingLength >= 1 << 20) await flush();
    },
    flush,
    get bytes() {
      return bytes;
    },
  };
}

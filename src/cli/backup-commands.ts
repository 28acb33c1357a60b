import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.ts';
import type { BackupSummary } from '../modules/backup/backup-format.ts';
import { KEYS } from '../modules/backup/backup-keys.ts';
import { StartError } from '../start-error.ts';
import { type JsonOption, leaf, type Run } from './command-parts.ts';
import { CliError } from './connect.ts';

const SENSITIVE =
  'It holds the keys and the sealed codes: keep it as safe as the keys themselves (it is mode 0600).';

/**
 * `backup --out FILE`: the running server's consistent backup, through the admin API, written to
 * FILE (mode 0600) and read back through to its end line before it replaces FILE, so a file that is
 * there is a whole one. `restore --from FILE`: with the server stopped, into the empty database of
 * DATA_DIR or DATABASE_URL (modules/backup/restore.ts; it opens the target itself, not the API).
 */
export function addBackupCommands(program: Command, run: Run): void {
  leaf(program, 'backup', "a consistent backup of the running server: its database and DATA_DIR's keys")
    .requiredOption('--out <file>', 'the file to write (mode 0600; an existing one is replaced)')
    .option('--without-keys', 'leave the key files out (the restore then needs them from elsewhere)')
    .action((o: JsonOption & { out: string; withoutKeys?: boolean }) =>
      run(o.json, async (admin) => {
        const download = await admin.backup.download({ withoutKeys: o.withoutKeys === true });
        const summary = await save(download.stream, o.out);
        return { json: { file: o.out, ...summary }, text: backupText(o.out, summary) };
      }),
    );

  program
    .command('restore')
    .description('restore a backup into an empty DATA_DIR, or DATABASE_URL (server stopped)')
    .requiredOption('--from <file>', 'the backup file (airgift backup --out)')
    .option('--json', 'print what was restored as JSON')
    .action(async (o: JsonOption & { from: string }) => {
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig();
      } catch (error) {
        if (error instanceof ConfigError) throw new CliError(error.message);
        throw error;
      }
      // Loaded here only: it brings PGlite and node-postgres, which no other command needs.
      const { restoreBackup, RestoreRefusedError } = await import('../modules/backup/restore.ts');
      const { DamagedBackupError } = await import('../modules/backup/backup-format.ts');
      try {
        // the embedded database's directory is one process's: a server on it refuses, and so does restore
        if (!config.databaseUrl) {
          const { mkdirSync } = await import('node:fs');
          const { lockDataDirectory } = await import('../data-directory.ts');
          mkdirSync(config.dataDir, { recursive: true });
          lockDataDirectory(config.dataDir);
        }
        const result = await restoreBackup({
          file: o.from,
          env: process.env,
          target: config.databaseUrl
            ? { kind: 'postgres', url: config.databaseUrl, dataDir: config.dataDir }
            : { kind: 'pglite', dataDir: config.dataDir, sharedBuffers: config.pgliteSharedBuffers },
        });
        const next = result.migrations.appliedByNextStart;
        const text = [
          `restored ${result.rows} rows of ${result.tables} tables into ${result.database === 'pglite' ? 'PGlite at' : 'PostgreSQL'} ${result.location}`,
          `the backup: taken ${result.source.createdAt} from ${result.source.database} (PostgreSQL ${result.source.serverVersion}), migrations up to ${result.migrations.restoredUpTo}`,
          ...result.keys.map((k) => `key: ${k.note}`),
          next.length > 0 ? `the next start applies the newer migrations: ${next.join(', ')}` : '',
          'next: start the server, then check it: airgift ledger audit',
        ].filter(Boolean);
        process.stdout.write(`${o.json ? JSON.stringify(result, null, 2) : text.join('\n')}\n`);
      } catch (error) {
        if (error instanceof RestoreRefusedError) throw new CliError(`restore refused: ${error.message}`);
        if (error instanceof StartError) throw new CliError(`restore refused: ${error.message}`);
        if (error instanceof DamagedBackupError)
          throw new CliError(
            `${o.from} is not a whole airgift backup: ${error.message}. Nothing was restored.`,
          );
        throw new CliError(
          `restore failed, nothing was restored: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
}

/** The download into `out`: a scratch file beside it (0600), checked whole, then renamed over `out`. */
async function save(stream: ReadableStream<Uint8Array>, out: string): Promise<BackupSummary> {
  const { summarizeBackup } = await import('../modules/backup/backup-format.ts');
  const partial = `${out}.partial-${process.pid}`;
  try {
    await pipeline(
      Readable.fromWeb(stream as WebReadableStream<Uint8Array>),
      createWriteStream(partial, { mode: 0o600, flags: 'wx' }),
    );
    const summary = await summarizeBackup(partial).catch((error) => {
      throw new CliError(`the backup arrived damaged (${error.message}); run the command again`);
    });
    await rename(partial, out);
    return summary;
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof CliError) throw error;
    // the download cut short, or the file not writable
    const e = error as NodeJS.ErrnoException;
    throw new CliError(`no backup written to ${out}: ${e.code ? `${e.code} ` : ''}${e.message}`);
  }
}

function backupText(out: string, s: BackupSummary): string {
  const keys = (Object.keys(KEYS) as (keyof typeof KEYS)[]).map((name) => {
    const key = KEYS[name];
    const source = s.keys[name];
    return source === 'file'
      ? `  ${key.file}: in the backup`
      : source === 'environment'
        ? `  ${key.file}: NOT in the backup: the server takes it from ${key.variable}; the restored server needs the same value`
        : source === 'left out'
          ? `  ${key.file}: left out (--without-keys): keep the server's file, the restore needs it`
          : `  ${key.file}: none yet on the server`;
  });
  return [
    `backup written to ${out}: ${s.rows} rows of ${s.tables} tables, taken ${s.createdAt} from ${s.database} (PostgreSQL ${s.serverVersion}), migrations up to ${s.migration}`,
    'keys:',
    ...keys,
    SENSITIVE,
  ].join('\n');
}

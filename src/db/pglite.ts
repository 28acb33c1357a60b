import { execFile } from 'node:child_process';
import { fdatasyncSync } from 'node:fs';
import { readdir, rename, rm, rmdir, statfs } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { StartError } from '../start-error.ts';

/**
 * The embedded database as airgift runs it, tuned for a server process that holds it for hours:
 *
 * - **A new data directory is made in a child process** (plain node, a few lines). PGlite's initdb
 *   loads a second WebAssembly instance and leaves ~500 MB of resident memory behind that the server's
 *   process never gets back; made in a child, it goes with the child. The child writes into a scratch
 *   directory renamed into place at the end; a scratch left by an interrupted first start is removed
 *   at the next (the data directory's lock says nobody else is making one).
 * - **A directory that holds anything is never replaced.** Only a missing or empty `pgdata` is made
 *   anew; one without `PG_VERSION` (damaged, half-copied) stops the start and says so.
 * - **Commits are durable.** PGlite starts PostgreSQL with `-F` (fsync off), and its Node file system
 *   has no fsync at all (emscripten's fdatasync is a no-op). Here fsync is on, the WAL is flushed
 *   with fsync (`wal_sync_method=fsync`), and the file system's fsync reaches the disk
 *   (`fdatasync(2)`): an acknowledged order survives a power cut (bench/README.md: what it costs).
 * - **`shared_buffers` is small** (`PGLITE_SHARED_BUFFERS`, default 16MB, where PostgreSQL's default is
 *   128MB): the data files are on the local file system, whose page cache the kernel shares and gives
 *   back; PostgreSQL's own buffers inside WebAssembly memory are never given back once touched.
 * - **A start that cannot open it says why**: damaged files (PGlite's "Aborted()"), a full disk.
 *
 * @example
 * const pglite = await openPglite('/var/lib/airgift/pgdata', { sharedBuffers: '16MB', parsers });
 */
const run = promisify(execFile);

export async function openPglite(
  dataDir: string,
  options: { sharedBuffers: string; parsers?: PGliteOptions['parsers'] },
): Promise<PGlite> {
  await removeStaleScratch(dataDir);
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (entries === null || entries.length === 0) await initdbInChild(dataDir);
  else if (!entries.includes('PG_VERSION')) {
    throw new StartError(
      `${dataDir} holds files but no PG_VERSION, so it is not a database airgift can open, and airgift ` +
        'never replaces one. If it is yours, put PG_VERSION back (it holds the PostgreSQL major version, ' +
        'as in a copy of the same installation), or restore a backup (npx airgift restore, docs/operations.md). ' +
        'To start afresh, move the directory away yourself.',
    );
  }
  try {
    return await PGlite.create({
      fs: new DurableNodeFS(dataDir),
      parsers: options.parsers,
      startParams: [
        ...PGlite.defaultStartParams.filter((p) => p !== '-F'),
        '-c',
        'wal_sync_method=fsync',
        '-c',
        `shared_buffers=${options.sharedBuffers}`,
      ],
    });
  } catch (error) {
    throw await whyNotOpened(dataDir, error);
  }
}

/** PGlite's Node file system with a working fsync (see above). */
class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const preRun = [
      ...(emscriptenOpts.preRun ?? []),
      (module: { NODEFS: { stream_ops: { fsync?: (stream: { nfd?: number }) => number } } }) => {
        module.NODEFS.stream_ops.fsync = (stream) => {
          if (stream.nfd !== undefined) fdatasyncSync(stream.nfd);
          return 0;
        };
      },
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

/** Why PGlite could not open `dataDir`, in words an operator can act on. */
async function whyNotOpened(dataDir: string, error: unknown): Promise<Error> {
  const free = await statfs(dataDir)
    .then((s) => s.bavail * s.bsize)
    .catch(() => null);
  if (free !== null && free < 16 * 1024 * 1024) {
    return new StartError(
      `the disk holding ${dataDir} is full (${Math.round(free / 1024)} KB free): free some space and start again`,
      { cause: error },
    );
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (/Aborted\(\)|PANIC|checkpoint record|invalid (page|magic)|could not (read|open)/i.test(text)) {
    return new StartError(
      `the embedded database in ${dataDir} could not be opened: its files are damaged (${text.slice(0, 200)}). ` +
        'Restore the last backup into an empty DATA_DIR (npx airgift restore --from FILE, docs/operations.md); ' +
        'keep the damaged directory for inspection.',
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(text);
}

/** Scratch directories (`pgdata.initdb-<pid>`) of first starts that were interrupted. */
async function removeStaleScratch(dataDir: string): Promise<void> {
  const prefix = `${basename(dataDir)}.initdb-`;
  const siblings = await readdir(dirname(dataDir)).catch(() => [] as string[]);
  for (const name of siblings) {
    if (name.startsWith(prefix)) await rm(join(dirname(dataDir), name), { recursive: true, force: true });
  }
}

async function initdbInChild(dataDir: string): Promise<void> {
  const scratch = `${dataDir}.initdb-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  // The child needs nothing of ours: the same PGlite package, by its resolved file URL.
  const child = `const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    await (await PGlite.create(process.argv[1])).close();`;
  await run(process.execPath, ['--input-type=module', '-e', child, scratch], { timeout: 120_000 });
  // an empty directory (made by hand, or by a mount) is the only thing ever replaced
  await rmdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(scratch, dataDir);
}

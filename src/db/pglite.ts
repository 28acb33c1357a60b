import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * The embedded database as airgift runs it, tuned for a server process that holds it for hours:
 *
 * - **A new data directory is made in a child process** (plain node, a few lines). PGlite's initdb loads a
 *   second WebAssembly instance and leaves ~500 MB of resident memory behind that the server's
 *   process never gets back; made in a child, it goes with the child. The child writes into a
 *   scratch directory renamed into place at the end, so an interrupted first start leaves nothing a
 *   later start would mistake for a database.
 * - **`shared_buffers` is small** (`PGLITE_SHARED_BUFFERS`, default 16MB, where PostgreSQL's default is
 *   128MB): the data files are on the local file system, whose page cache the kernel shares and gives
 *   back; PostgreSQL's own buffers inside WebAssembly memory are never given back once touched.
 *
 * @example
 * const pglite = await openPglite('/var/lib/airgift/pgdata', { sharedBuffers: '16MB', parsers });
 */
const run = promisify(execFile);

export async function openPglite(
  dataDir: string,
  options: { sharedBuffers: string; parsers?: PGliteOptions['parsers'] },
): Promise<PGlite> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initdbInChild(dataDir);
  return PGlite.create(dataDir, {
    parsers: options.parsers,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`],
  });
}

async function initdbInChild(dataDir: string): Promise<void> {
  const scratch = `${dataDir}.initdb-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  // The child needs nothing of ours: the same PGlite package, by its resolved file URL.
  const child = `const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    await (await PGlite.create(process.argv[1])).close();`;
  await run(process.execPath, ['--input-type=module', '-e', child, scratch], { timeout: 120_000 });
  await rm(dataDir, { recursive: true, force: true });
  await rename(scratch, dataDir);
}

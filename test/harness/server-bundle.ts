import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CACHE_DIR } from './templates.ts';

/**
 * The server processes of the suites run the production bundle (scripts/build.mjs, what `npm start`
 * runs), built once per change of the sources and kept with the templates: starting
 * `src/main.ts` through tsx costs ~4 s of transpiling and loading per process on a loaded 2-core
 * machine, the bundle well under a second, and the two-server suites start 2 to 4 processes each.
 * The folder's name carries a hash of everything the bundle is made from (src/ with the pages'
 * browser code, the lock file, the build script), so an edit makes a new one and a stale bundle is
 * never run.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const INPUTS = ['src'];
const FILES = ['package-lock.json', join('scripts', 'build.mjs')];
const run = promisify(execFile);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...FILES, ...(await Promise.all(INPUTS.map((d) => filesUnder(join(ROOT, d))))).flat()];
  for (const file of files.map((f) => (f.startsWith(ROOT) ? f : join(ROOT, f))).sort()) {
    hash.update(file.slice(ROOT.length)).update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 12);
}

let built: Promise<string> | null = null;

/** The path of the bundle's `main.mjs` for the sources as they are now; built when missing. */
export function ensureServerBundle(): Promise<string> {
  built ??= (async () => {
    const dir = join(CACHE_DIR, `server-${await sourcesHash()}`);
    const main = join(dir, 'main.mjs');
    if (existsSync(main)) return main;
    // Built aside and renamed: a file running in parallel never sees half a bundle.
    const building = `${dir}.${process.pid}.tmp`;
    await mkdir(CACHE_DIR, { recursive: true });
    await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--force', '--outdir', building]);
    await rename(building, dir).catch(async (error) => {
      await rm(building, { recursive: true, force: true });
      if (!existsSync(main)) throw error; // otherwise another process made the same one meanwhile
    });
    await pruneOlderBundles(dir);
    return main;
  })();
  return built;
}

/** Bundles of earlier sources (one per edit) are removed once an hour old: no run still uses them. */
async function pruneOlderBundles(current: string) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of await readdir(CACHE_DIR)) {
    const path = join(CACHE_DIR, name);
    if (!/^server-[0-9a-f]{12}$/.test(name) || path === current) continue;
    if ((await stat(path)).mtimeMs < hourAgo) await rm(path, { recursive: true, force: true });
  }
}

// The production build that `npm start` runs: the server's TypeScript bundled into one ES module,
// dist/main.mjs, with every npm package left as an import. Running it needs no TypeScript loader,
// which saves ~100 MB of resident memory (tsx's loader keeps a second V8 isolate) and most of a
// second at each start. Plain JavaScript on purpose: it must start fast and needs only esbuild.
// The build is skipped when dist/main.mjs is newer than every file under src/.
//
//   node scripts/build.mjs [--force] [--outdir DIR]
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const outdir = resolve(root, args.includes('--outdir') ? args[args.indexOf('--outdir') + 1] : 'dist');
const outfile = join(outdir, 'main.mjs');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function upToDate() {
  try {
    const built = statSync(outfile).mtimeMs;
    return (
      built > newestUnder(join(root, 'src')) && built > statSync(join(root, 'package-lock.json')).mtimeMs
    );
  } catch {
    return false;
  }
}

if (args.includes('--force') || !upToDate()) {
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

// The production build that `npm start` runs: the server's TypeScript bundled into one ES module,
// dist/main.mjs. Running it needs no TypeScript loader, which saves ~100 MB of resident memory (tsx's
// loader keeps a second V8 isolate) and most of a second at each start. Plain JavaScript on purpose:
// it must start fast and needs only esbuild.
//
// npm packages stay imports from node_modules, except a few pure ES-module ones
// (scripts/bundle-packages.mjs).
//
// The dashboard's and console's front-ends (src/modules/web/<page>/pages/main.ts) are bundled here
// too and written into main.mjs as string constants (AIRGIFT_WEB_BUNDLES, read by
// src/modules/web/web-assets.ts): the server then starts no esbuild of its own, and the bundle stays
// one file wherever it is put. The build is skipped when dist/main.mjs is newer than every file
// under src/.
//
//   node scripts/build.mjs [--force] [--outdir DIR]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { externalPackages } from './bundle-packages.mjs';

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
      built > newestUnder(join(root, 'src')) &&
      built > statSync(join(root, 'package-lock.json')).mtimeMs &&
      built > statSync(import.meta.filename).mtimeMs
    );
  } catch {
    return false;
  }
}

const WEB_DIR = join(root, 'src', 'modules', 'web');

/** The same options as the in-memory build of `npm run dev` (src/modules/web/web-assets.ts). */
async function webBundle(page) {
  // The same options as the front-end bundled in memory from the sources (src/modules/web/web-assets.ts).
  const options = JSON.parse(readFileSync(join(WEB_DIR, 'bundle-options.json'), 'utf8'));
  const result = await build({
    ...options,
    entryPoints: [join(WEB_DIR, page, 'pages', 'main.ts')],
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

if (args.includes('--force') || !upToDate()) {
  const [dashboard, console] = await Promise.all([webBundle('dashboard'), webBundle('console')]);
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages],
    sourcemap: 'linked',
    logLevel: 'warning',
    define: { AIRGIFT_WEB_BUNDLES: JSON.stringify({ dashboard, console }) },
  });
}

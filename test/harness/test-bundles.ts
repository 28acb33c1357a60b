import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { externalPackages } from '../../scripts/bundle-packages.mjs';
import { CACHE_DIR } from './templates.ts';

/**
 * `npm test` runs the test files as JavaScript bundles, built here once per run (test/prepare.ts),
 * instead of through tsx's loader. On Node 20 a loader's hooks run on a thread of their own, and every
 * module an ES import reaches (our ~300 source files, and the hundreds of files of kysely, typebox,
 * jose and libphonenumber-js) costs a round trip to it: ~1.2 s of wall time and ~1.5 s of CPU in each
 * of the 143 test processes, against ~0.4 s for the same code bundled. `npm run test:one` still runs
 * the sources through tsx, so a file can be tried without a build.
 *
 * The bundles behave as the sources do:
 * - `import.meta.url`, `.dirname` and `.filename` are written into each file as its own source's
 *   (paths next to a test file, `isMain` checks of the scripts, createRequire from a file's folder);
 * - names are kept (esbuild's keepNames, as tsx does), so classes and functions keep theirs;
 * - npm packages are bundled or not as in the production build (scripts/bundle-packages.mjs);
 * - the code shared by the files is split into chunks, each compiled by V8 on first use;
 * - source maps (node --enable-source-maps) point a failure at its line of TypeScript.
 */
const TEST_BUNDLES_DIR = join(CACHE_DIR, 'tests');

const ROOT = join(import.meta.dirname, '..', '..');

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

/** Each of our TypeScript files gets its own `import.meta` values as constants. */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const values = {
        url: pathToFileURL(args.path).href,
        dirname: dirname(args.path),
        filename: args.path,
      };
      const contents = source.replace(IMPORT_META, (_, key: keyof typeof values) =>
        JSON.stringify(values[key]),
      );
      return { contents, loader: 'ts' };
    });
  },
};

/** Every `*.test.ts` file under test/, as absolute paths. */
async function testFiles(): Promise<string[]> {
  const testDir = join(ROOT, 'test');
  const found = await readdir(testDir, { recursive: true });
  return found.filter((f) => f.endsWith('.test.ts')).map((f) => join(testDir, f));
}

/**
 * Bundles every test file into TEST_BUNDLES_DIR, the same tree as under test/, as `.test.mjs`
 * (npm test hands them to `node --test`).
 */
export async function buildTestBundles(): Promise<void> {
  await rm(TEST_BUNDLES_DIR, { recursive: true, force: true });
  const entryPoints = (await testFiles()).map((file) => ({
    in: file,
    out: relative(join(ROOT, 'test'), file).replace(/\.ts$/, ''),
  }));
  await build({
    entryPoints,
    outdir: TEST_BUNDLES_DIR,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: true,
    sourcemap: 'linked',
    plugins: [externalPackages, ownImportMeta],
    logLevel: 'warning',
  });
}

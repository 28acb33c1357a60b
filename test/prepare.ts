import { loadTls } from '../src/http/tls.ts';
import { ensureServerBundle } from './harness/server-bundle.ts';
import {
  CACHE_DIR,
  ensurePgliteTemplate,
  ensurePostgresTemplate,
  postgresAvailable,
} from './harness/templates.ts';
import { buildTestBundles } from './harness/test-bundles.ts';

/**
 * Runs once before the test files (npm test): builds the migrated PGlite dump and, where the
 * PostgreSQL server answers, the migrated template database, so each test file only copies them.
 * It also makes the suite's development CA and certificate here, once: test files run in parallel
 * and would otherwise race to create them (one file's CA signing another's certificate); and the
 * production bundle the suites' server processes run (harness/server-bundle.ts). With `--bundles`
 * (npm test), it also bundles the test files that `node --test` then runs (harness/test-bundles.ts).
 */
const started = Date.now();
await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
const bundled = ensureServerBundle();
const testsBundled = process.argv.includes('--bundles') ? buildTestBundles() : null;
await ensurePgliteTemplate();
const pg = await postgresAvailable();
if (pg) await ensurePostgresTemplate();
await bundled;
await testsBundled;
process.stdout.write(
  `test templates ready in ${Date.now() - started} ms (PGlite${pg ? ' + PostgreSQL' : '; PostgreSQL not reachable, its suites will be skipped'})\n`,
);

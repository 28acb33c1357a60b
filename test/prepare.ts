import { ensurePgliteTemplate, ensurePostgresTemplate, postgresAvailable } from './harness/templates.ts';

/**
 * Runs once before the test files (npm test): builds the migrated PGlite dump and, where the
 * PostgreSQL server answers, the migrated template database, so each test file only copies them.
 */
const started = Date.now();
await ensurePgliteTemplate();
const pg = await postgresAvailable();
if (pg) await ensurePostgresTemplate();
process.stdout.write(
  `test templates ready in ${Date.now() - started} ms (PGlite${pg ? ' + PostgreSQL' : '; PostgreSQL not reachable, its suites will be skipped'})\n`,
);

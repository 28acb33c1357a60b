import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { listenHttpsOnly } from '../../src/http/listener.ts';
import { loadTls } from '../../src/http/tls.ts';
import { offsetClock } from '../../src/lib/clock.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { ADMIN_KEY, createHttpClient, type Server, SIGNING_KEY, serverApi } from './client.ts';
import { CACHE_DIR, createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from './templates.ts';

/**
 * A real airgift for a test file: the production app and services on a fresh copy of a migrated
 * database (PGlite by default, PostgreSQL for the concurrency suites), listening with real TLS on a
 * loopback port, with a clock the test can move. Bases are https://localhost/<prefix>: the tests
 * call https://127.0.0.1:<port>/<prefix>, which the base router matches by path prefix.
 * Its `http`, `admin`, `caller` and `assertLedgerAudit` are the `Server` of client.ts.
 */
export interface TestServer extends Server {
  /** The app itself, for suites that call it in-process (`app.inject`) for speed. */
  app: Awaited<ReturnType<typeof buildApp>>;
  runtime: Runtime;
  config: Config;
  clock: ReturnType<typeof offsetClock>;
  db: Db;
  close(): Promise<void>;
}

export interface StartOptions {
  database?: 'pglite' | 'postgres';
  env?: Record<string, string>;
  /** Listen on this port instead of any free one (a browser test whose PUBLIC_URL names the port). */
  port?: number;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'airgift-test-'));
  const env = {
    PUBLIC_URL: 'https://localhost',
    DATA_DIR: dataDir,
    ADMIN_KEY,
    TOKEN_SIGNING_KEY: SIGNING_KEY,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SANDBOX_ACCOUNT: 'false',
    ...options.env,
  };
  let dropDatabase = async () => {};
  let db: Db;
  if (options.database === 'postgres') {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    db = await openDatabase({ url: created.url, poolSize: 20 });
  } else {
    db = fromPGlite(await loadPgliteTemplate());
  }
  const config = loadConfig(env);
  const clock = offsetClock();
  const runtime = await openRuntime(config, clock, db);
  // One development CA for the whole suite, kept with the templates, instead of new RSA keys per file.
  const tls = await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
  const app = await buildApp({
    config,
    bases: runtime.bases,
    services: runtime.services,
    adminKey: runtime.adminKey,
    https: { key: tls.key, cert: tls.cert },
    rateLimiter: runtime.rateLimiter,
  });
  const listening = await listenHttpsOnly(app, options.port ?? 0, '127.0.0.1');
  const url = `https://127.0.0.1:${listening.port}`;
  const ca = tls.cert;
  const http = createHttpClient(url, ca);
  return {
    url,
    app,
    runtime,
    config,
    clock,
    db,
    http,
    ...serverApi(http),
    async close() {
      await http.close();
      await listening.close();
      await runtime.services.requestLog.close();
      await runtime.services.upstreams.close();
      await runtime.services.messaging.close();
      await runtime.rateLimiter.close();
      await db.close();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A loopback port nobody listens on now (for a server whose PUBLIC_URL must name its port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** For suites that need real concurrency: PostgreSQL when reachable; in CI it must be. */
export async function postgresForTests(): Promise<boolean> {
  const ok = await postgresAvailable();
  if (!ok && process.env.CI)
    throw new Error('PostgreSQL is not reachable, and CI must run the PostgreSQL suites');
  return ok;
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { loadTls } from '../../src/http/tls.ts';
import {
  ADMIN_KEY,
  AUDIENCES,
  CA_FILE,
  caPem,
  createHttpClient,
  type Server,
  SIGNING_KEY,
  serverApi,
  type TestAccount,
} from './client.ts';
import { postgresForTests } from './server.ts';
import { ensureServerBundle } from './server-bundle.ts';
import { ADMIN_PG_URL, CACHE_DIR, createPostgresDatabase } from './templates.ts';
import { sleep } from './until.ts';

/**
 * The real server as an operator runs it: the production bundle of `src/main.ts` (what `npm start`
 * runs; server-bundle.ts) in a process of its own, on a fresh PostgreSQL database copied from the
 * migrated template, its own DATA_DIR, a free port. The fault suites break things around it (its
 * database, its stdout, signals) and watch what it does. Only this process is ever signalled or
 * killed, by its pid. TEST_SERVER=sources runs `src/main.ts` through tsx instead (no build step).
 */
const ROOT = join(import.meta.dirname, '..', '..');

/** Its `http`, `admin`, `caller` and `assertLedgerAudit` are the `Server` of client.ts, as in-process. */
export interface ServerProcess extends Server {
  child: ChildProcess;
  /** The database's name, for the outage helpers. */
  database: string;
  databaseUrl: string;
  /** Its DATA_DIR (shared with the server it was started beside). */
  dataDir: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** When and how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  credentials: { clientId: string; clientSecret: string; accountId: number };
  /** A token of `credentials` (the bootstrap sandbox account) for `audience`. */
  token(audience: string): Promise<string>;
  /** Kills the process if it still runs (SIGKILL, by pid); the first server also drops the database and removes DATA_DIR. */
  cleanup(): Promise<void>;
}

/**
 * Where a process keeps its data instead of a new PostgreSQL database and DATA_DIR: `database`
 * 'pglite' is the embedded database of its DATA_DIR (no PostgreSQL needed), `{ url }` a database the
 * caller made (and drops); `dataDir` a DATA_DIR the caller made (and removes) that already holds an
 * installation (a restored one): no sandbox account is made there, `credentials` are the caller's.
 */
export interface ProcessData {
  database?: 'pglite' | { url: string };
  dataDir?: string;
  credentials?: ServerProcess['credentials'];
}

/**
 * `sharing`: a second server on the database of one already running (it keeps that database and its
 * sandbox credentials and DATA_DIR; the first one's cleanup drops and removes them).
 * `data`: `database: 'pglite'` runs the embedded database in DATA_DIR, as `npm start` does, or a
 * given PostgreSQL database; `dataDir` a given DATA_DIR (the caller removes it), else a new one
 * that cleanup removes.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  sharing?: ServerProcess,
  data: ProcessData = {},
): Promise<ServerProcess> {
  // The suite's one development certificate, shared with the in-process harness (no RSA per start).
  await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
  const tlsDir = dirname(CA_FILE);
  const keep = { drop: async () => undefined };
  const database = sharing
    ? { url: sharing.databaseUrl, ...keep }
    : data.database === 'pglite'
      ? { url: '', ...keep } // an empty DATABASE_URL is unset: PGlite in DATA_DIR
      : data.database
        ? { url: data.database.url, ...keep }
        : await createPostgresDatabase();
  const name = database.url ? new URL(database.url).pathname.slice(1) : '';
  // A fresh installation makes the bootstrap sandbox account and prints its credentials.
  const bootstraps = !sharing && !data.dataDir && typeof data.database !== 'object';
  // One deployment: a second server shares the first one's DATA_DIR (its keys, the card codes key among them).
  const dataDir = sharing
    ? sharing.dataDir
    : (data.dataDir ?? (await mkdtemp(join(tmpdir(), 'airgift-server-'))));
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const entry =
    process.env.TEST_SERVER === 'sources'
      ? ['--import', 'tsx', join(ROOT, 'src', 'main.ts')]
      : ['--enable-source-maps', await ensureServerBundle()];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      ...inherited,
      DATABASE_URL: database.url, // empty: unset, the embedded database in DATA_DIR
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://localhost',
      TLS_CERT_FILE: join(tlsDir, 'server.crt'),
      TLS_KEY_FILE: join(tlsDir, 'server.key'),
      ADMIN_KEY,
      TOKEN_SIGNING_KEY: SIGNING_KEY,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.stdout?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );

  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      child.kill('SIGKILL');
      await exited;
    }
    await database.drop();
    if (!sharing && !data.dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      // the embedded database's first start runs initdb (seconds; a minute and more on a loaded machine)
      const limitMs = data.database === 'pglite' ? 180_000 : 60_000;
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), limitMs);
      const check = () => {
        const m = (
          bootstraps ? /listening on port (\d+)[\s\S]*Get a token/ : /listening on port (\d+) \(/
        ).exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout?.on('data', check);
      void exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await cleanup();
    throw error;
  }

  const url = `https://127.0.0.1:${port}`;
  const http = createHttpClient(url, caPem());
  const credentials =
    sharing?.credentials ??
    data.credentials ??
    (await readFile(join(dataDir, 'sandbox-credentials.json'), 'utf8').then(JSON.parse, () => null));
  const api = serverApi(http);
  return {
    url,
    child,
    http,
    database: name,
    databaseUrl: database.url,
    output: () => output,
    exited,
    credentials,
    dataDir,
    ...api,
    token: (audience) => api.admin.token(credentials, audience),
    async cleanup() {
      await cleanup();
      // After the process is gone, so that no request of a failed test can hold the close up.
      await Promise.race([http.close().catch(() => undefined), sleep(2000)]);
    },
  };
}

/** Runs `statement` on the PostgreSQL server's maintenance database. */
export async function adminQuery(statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: ADMIN_PG_URL });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

/**
 * A database outage for one database only (the shared server keeps running): new connections are
 * refused ("database is not currently accepting connections") and every open one is terminated.
 */
export async function cutDatabase(name: string) {
  await adminQuery(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  await adminQuery('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
}

export async function restoreDatabase(name: string) {
  await adminQuery(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
}

/** A client of the test database itself, for reading what was recorded. */
export async function queryDatabase<T extends pg.QueryResultRow>(
  name: string,
  statement: string,
  values: unknown[] = [],
): Promise<T[]> {
  const u = new URL(ADMIN_PG_URL);
  u.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * `count` servers of one deployment: one database, one DATA_DIR (its keys: signing, card codes).
 * `stop()` ends them, the first last (its cleanup drops the shared database and DATA_DIR).
 */
export async function startDeployment(
  count = 2,
  env: Record<string, string> = {},
): Promise<{ servers: ServerProcess[]; stop(): Promise<void> }> {
  const servers = [await startServerProcess(env)];
  while (servers.length < count) servers.push(await startServerProcess(env, servers[0]));
  return {
    servers,
    async stop() {
      for (const s of [...servers].reverse()) await s.cleanup();
    },
  };
}

/**
 * A new account made through `server`'s admin API (`adminHelper`, funded in `environment`), and an
 * access token of its credential for `audience`: what the suites with several server processes start from.
 */
export async function accountOn(
  server: ServerProcess,
  o: {
    name?: string;
    currency?: string;
    environment?: 'live' | 'sandbox';
    fund?: number;
    audience?: string;
  } = {},
): Promise<TestAccount & { token: string }> {
  const { admin } = server;
  const environment = o.environment ?? 'sandbox';
  const account = await admin.createAccount({
    name: o.name ?? 'Two servers',
    currency: o.currency ?? 'USD',
    environment,
    fund: o.fund ?? 1000,
  });
  const audience =
    o.audience ?? (environment === 'live' ? AUDIENCES.giftcardsLive : AUDIENCES.giftcardsSandbox);
  return { ...account, token: await admin.token(account, audience) };
}

/**
 * A deployment of `count` servers for a whole test file: started before its tests when PostgreSQL is
 * reachable (postgresForTests), stopped after them. `servers` fills in once started; `skip` is the
 * tests' option (a reason when PostgreSQL is not there).
 *
 * @example
 * const suite = await deploymentForSuite(2);
 * test('...', { skip: suite.skip }, async () => { const [a, b] = suite.servers; ... });
 */
export async function deploymentForSuite(count = 2, env: Record<string, string> = {}) {
  const pg = await postgresForTests();
  const suite = { servers: [] as ServerProcess[], skip: !pg && 'PostgreSQL not reachable' };
  let deployment: Awaited<ReturnType<typeof startDeployment>> | undefined;
  before(async () => {
    if (!pg) return;
    deployment = await startDeployment(count, env);
    suite.servers.push(...deployment.servers);
  });
  after(() => deployment?.stop());
  return suite;
}

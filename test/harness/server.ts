import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import { listenHttpsOnly } from '../../src/http/listener.ts';
import { loadTls } from '../../src/http/tls.ts';
import { offsetClock } from '../../src/lib/clock.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { baseOf, type ContractChecker, createContractChecker } from './contract.ts';
import { CACHE_DIR, createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from './templates.ts';

/**
 * A real airgift for a test file: the production app and services on a fresh copy of a migrated
 * database (PGlite by default, PostgreSQL for the concurrency suites), listening with real TLS on a
 * loopback port, with a clock the test can move. Bases are https://localhost/<prefix>: the tests
 * call https://127.0.0.1:<port>/<prefix>, which the base router matches by path prefix.
 */
export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
export const SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';

export interface TestServer {
  url: string;
  /** The app itself, for suites that call it in-process (`app.inject`) for speed. */
  app: Awaited<ReturnType<typeof buildApp>>;
  runtime: Runtime;
  config: Config;
  clock: ReturnType<typeof offsetClock>;
  db: Db;
  http: HttpClient;
  admin: AdminHelper;
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
    admin: adminHelper(http),
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

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is (already serialised), for malformed-body tests. */
  rawBody?: string;
  /** Aborts the request (the crash suite cuts connections with it). */
  signal?: AbortSignal;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** Off with CONTRACT=off; otherwise every answer is checked against the server's OpenAPI documents. */
const CONTRACT = process.env.CONTRACT !== 'off';

export function createHttpClient(baseUrl: string, ca: string) {
  const dispatcher = new Agent({ connect: { ca }, connections: 64 });
  let checker: Promise<ContractChecker> | null = null;
  const loadChecker = () => {
    checker ??= (async () => {
      const docs: Record<string, any> = {};
      for (const [prefix, kind] of [
        ['/auth', 'auth'],
        ['/giftcards-sandbox', 'giftcards'],
        ['/topups-sandbox', 'topups'],
        ['/admin', 'admin'],
      ]) {
        const res = await request(`${baseUrl}${prefix}/openapi.json`, { dispatcher });
        docs[kind] = await res.body.json();
      }
      return createContractChecker(docs);
    })();
    return checker;
  };
  async function call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await request(`${baseUrl}${path}`, {
      method: method as 'GET',
      headers,
      body,
      dispatcher,
      signal: o.signal,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    const base = CONTRACT ? baseOf(path) : null;
    // The documents and the reference pages (`/docs`, `/docs/...`) are not API answers.
    if (base && !base.rest.endsWith('/openapi.json') && !/^\/docs(\/|$)/.test(base.rest)) {
      const violation = (await loadChecker()).check(
        base.kind,
        method,
        base.rest,
        response.statusCode,
        parsed,
        String(response.headers['content-type'] ?? ''),
      );
      if (violation) {
        throw new Error(
          `contract: ${violation.method} ${path} answered ${violation.status}, which the OpenAPI document does not describe: ${violation.problem}\n${text.slice(0, 500)}`,
        );
      }
    }
    return { status: response.statusCode, headers: response.headers, body: parsed as T, text };
  }
  return {
    call,
    get: <T = any>(path: string, o?: CallOptions) => call<T>('GET', path, o),
    post: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>('POST', path, { ...o, body }),
    close: () => dispatcher.close(),
  };
}

export const AUDIENCES = {
  giftcardsLive: 'https://localhost/giftcards',
  giftcardsSandbox: 'https://localhost/giftcards-sandbox',
  topupsLive: 'https://localhost/topups',
  topupsSandbox: 'https://localhost/topups-sandbox',
} as const;

export interface TestAccount {
  accountId: number;
  environment: 'live' | 'sandbox';
  clientId: string;
  clientSecret: string;
  balance: number;
}

export function adminHelper(http: HttpClient) {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const must = <T>(a: Answer<T>, what: string): T => {
    if (a.status !== 200) throw new Error(`${what}: ${a.status} ${a.text}`);
    return a.body;
  };
  return {
    call: (method: string, path: string, body?: unknown) =>
      http.call(method, `/admin${path}`, { headers: auth, body }),
    async createAccount(
      input: Partial<{
        name: string;
        currency: string;
        country: string;
        environment: 'live' | 'sandbox';
        fund: string | number;
        scopes: string[];
        dailyCountLimit: number;
        dailyAmountLimit: string;
      }> = {},
    ) {
      const body = {
        name: 'Test account',
        currency: 'USD',
        country: 'US',
        environment: 'sandbox',
        fund: 1000,
        ...input,
      };
      return must<TestAccount>(await http.post('/admin/accounts', body, { headers: auth }), 'create account');
    },
    async token(account: Pick<TestAccount, 'clientId' | 'clientSecret'>, audience: string): Promise<string> {
      const a = await http.post('/auth/oauth/token', {
        client_id: account.clientId,
        client_secret: account.clientSecret,
        grant_type: 'client_credentials',
        audience,
      });
      return must<{ access_token: string }>(a, 'token').access_token;
    },
    async fund(accountId: number, amount: string | number, environment = 'sandbox') {
      return must(
        await http.post(
          `/admin/accounts/${accountId}/fund`,
          { environment, amount, reason: 'test funding' },
          { headers: auth },
        ),
        'fund',
      );
    },
    /**
     * The ledger audit's first half only: balances against their entries ([] when sound), for the
     * suites that post debits of made-up transaction ids straight through the ledger.
     */
    async auditBalances(): Promise<unknown[]> {
      return must<{ discrepancies: unknown[] }>(
        await http.get('/admin/ledger/audit', { headers: auth }),
        'audit',
      ).discrepancies;
    },
    /** The ledger audit's findings, both halves (balances, orders against their entries): [] when sound. */
    async audit(): Promise<unknown[]> {
      const audit = must<{ discrepancies: unknown[]; orders: unknown[] }>(
        await http.get('/admin/ledger/audit', { headers: auth }),
        'audit',
      );
      return [...audit.discrepancies, ...audit.orders];
    },
  };
}

export type AdminHelper = ReturnType<typeof adminHelper>;

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

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { baseOf, type ContractChecker, createContractChecker } from './contract.ts';
import { CACHE_DIR } from './templates.ts';

/**
 * The client side of every test server, in-process (server.ts) or a child process
 * (server-process.ts): one `Server` interface, so a suite calls either the same way. `http` sends
 * requests (every answer checked against the OpenAPI documents), `admin` is the admin API with the
 * admin key, `caller(product, env)` a new funded account of either product with its token, and
 * `assertLedgerAudit()` fails the test unless the ledger audit finds nothing.
 *
 * @example
 * const shop = await server.caller('giftcards', 'live', { fund: 100 });
 * assert.equal((await shop.post('/orders', body)).status, 200);
 * await server.assertLedgerAudit();
 */
export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
export const SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';

/**
 * The suites' one development CA (made by the first server of a run, kept with the templates): the
 * file for `AIRGIFT_CA_FILE`, `WEBHOOKS_CA_FILE`, `--ca-file`; `caPem()` its text for a client.
 */
export const CA_FILE = join(CACHE_DIR, 'tls', 'ca.crt');
export const caPem = () => readFileSync(CA_FILE, 'utf8');

export type Product = 'giftcards' | 'topups';
export type Environment = 'live' | 'sandbox';

/** What each product's API wants in `accept` (the Reloadly vendor types). */
export const PRODUCT_ACCEPT: Record<Product, string> = {
  giftcards: 'application/com.reloadly.giftcards-v1+json',
  topups: 'application/com.reloadly.topups-v1+json',
};

export interface Server {
  /** https://127.0.0.1:<port> */
  url: string;
  http: HttpClient;
  admin: AdminHelper;
  /** A new account (funded with 1000 unless `account` says otherwise) and a client of `product` in `env` with its token. */
  caller(product: Product, env?: Environment, account?: AccountInput): Promise<Caller>;
  /** Fails unless the ledger audit is empty: `balances` only the first half (balances against their entries). */
  assertLedgerAudit(o?: { balancesOnly?: boolean; what?: string }): Promise<void>;
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

/** The body of `POST /auth/oauth/token` for `account`'s credential (client credentials grant). */
export const tokenRequest = (
  account: Pick<TestAccount, 'clientId' | 'clientSecret'>,
  audience: string = AUDIENCES.giftcardsSandbox,
) => ({
  client_id: account.clientId,
  client_secret: account.clientSecret,
  grant_type: 'client_credentials',
  audience,
});

export type AccountInput = Partial<{
  name: string;
  currency: string;
  country: string;
  environment: Environment;
  fund: string | number;
  scopes: string[];
  dailyCountLimit: number;
  dailyAmountLimit: string;
}>;

export function adminHelper(http: HttpClient) {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const must = <T>(a: Answer<T>, what: string): T => {
    if (a.status !== 200) throw new Error(`${what}: ${a.status} ${a.text}`);
    return a.body;
  };
  return {
    /** `method` on `/admin${path}` with the admin key: the answer, whatever its status. */
    call: (method: string, path: string, body?: unknown) =>
      http.call(method, `/admin${path}`, { headers: auth, body }),
    /** The same, for a call that must succeed: its body, or an error naming the call and the answer. */
    ok: async (method: string, path: string, body?: unknown) =>
      must(await http.call(method, `/admin${path}`, { headers: auth, body }), `admin ${method} ${path}`),
    async createAccount(input: AccountInput = {}) {
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
      const a = await http.post('/auth/oauth/token', tokenRequest(account, audience));
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

export type Caller = Awaited<ReturnType<typeof makeCaller>>;

async function makeCaller(
  http: HttpClient,
  admin: AdminHelper,
  product: Product,
  env: Environment,
  account: AccountInput,
) {
  const created = await admin.createAccount({ ...account, environment: env });
  const base = env === 'live' ? `/${product}` : `/${product}-sandbox`;
  const token = await admin.token(created, `https://localhost${base}`);
  const headers = { accept: PRODUCT_ACCEPT[product] };
  return {
    account: created,
    token,
    /** `/giftcards`, `/topups-sandbox`...: what `get` and `post` put before their path. */
    base,
    get: (path: string) => http.get(`${base}${path}`, { token, headers }),
    post: (path: string, body: unknown) => http.post(`${base}${path}`, body, { token, headers }),
  };
}

/** `admin`, `caller` and `assertLedgerAudit` of a server that `http` reaches. */
export function serverApi(http: HttpClient): Pick<Server, 'admin' | 'caller' | 'assertLedgerAudit'> {
  const admin = adminHelper(http);
  return {
    admin,
    caller: (product, env = 'sandbox', account = {}) => makeCaller(http, admin, product, env, account),
    async assertLedgerAudit(o = {}) {
      const found = o.balancesOnly ? await admin.auditBalances() : await admin.audit();
      assert.deepEqual(found, [], o.what ?? 'the ledger audit');
    },
  };
}

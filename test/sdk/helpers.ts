import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  type BaseUrlOptions,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  GiftCards,
  Topups,
} from '../../sdk/src/index.ts';
import { AUDIENCES, CA_FILE, type TestAccount } from '../harness/client.ts';
import { BASE_PREFIXES, baseOf, type ContractChecker, createContractChecker } from '../harness/contract.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * Pieces the SDK suites share: a fetch that trusts the test CA (the SDK itself only knows the
 * platform fetch; Node's needs a dispatcher for a private CA), client options pointing the SDK at a
 * test server, and fetch wrappers that fake failures while recording what was sent.
 */

/** The development CA the test servers' certificates are signed with (made by the first server). */

export function tlsFetch(caFile = CA_FILE): FetchLike & { close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } });
  const raw = ((url: string, init: FetchInit) =>
    undiciFetch(url, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as FetchLike;
  return Object.assign(contractChecked(raw), { close: () => dispatcher.close() });
}

/**
 * Every answer the SDK receives from a test server is checked against the OpenAPI document that
 * server publishes for the base, as the harness does for its own client (off with CONTRACT=off).
 * A violation fails the call, so the SDK suites extend the contract test to everything they send.
 */
export function contractChecked(inner: FetchLike): FetchLike {
  if (process.env.CONTRACT === 'off') return inner;
  const checkers = new Map<string, Promise<ContractChecker>>();
  const checkerFor = (origin: string) => {
    let checker = checkers.get(origin);
    if (!checker) {
      checker = (async () => {
        const docs: Record<string, any> = {};
        for (const [prefix, kind] of BASE_PREFIXES) {
          if (docs[kind]) continue;
          const answer = await inner(`${origin}${prefix}/openapi.json`, { method: 'GET', headers: {} });
          docs[kind] = JSON.parse(await answer.text());
        }
        return createContractChecker(docs);
      })();
      checkers.set(origin, checker);
    }
    return checker;
  };
  return async (url, init) => {
    const response = await inner(url, init);
    const text = await response.text();
    const { origin, pathname } = new URL(url);
    const match = baseOf(pathname);
    const published = pathname.endsWith('/openapi.json') || pathname.endsWith('/docs');
    if (match && !published) {
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {}
      const contentType = response.headers.get('content-type') ?? '';
      const violation = (await checkerFor(origin)).check(
        match.kind,
        init.method,
        match.rest,
        response.status,
        body,
        contentType,
      );
      if (violation) {
        throw new Error(
          `contract: ${init.method} ${pathname} answered ${response.status}, which the OpenAPI document does not describe: ${violation.problem}\n${text.slice(0, 500)}`,
        );
      }
    }
    return { status: response.status, headers: response.headers, text: async () => text };
  };
}

export type Product = 'giftcards' | 'topups';

/** Options for a GiftCards/Topups client on the test server's sandbox base of `product`. */
export function sandboxOptions(
  server: TestServer,
  account: Pick<TestAccount, 'clientId' | 'clientSecret'>,
  product: Product,
  fetch: FetchLike,
): BaseUrlOptions {
  return {
    clientId: account.clientId,
    clientSecret: account.clientSecret,
    baseUrl: `${server.url}/${product}-sandbox`,
    authUrl: `${server.url}/auth`,
    audience: product === 'giftcards' ? AUDIENCES.giftcardsSandbox : AUDIENCES.topupsSandbox,
    fetch,
  };
}

export interface SentRequest {
  method: string;
  url: string;
  path: string;
  status: number | 'network error';
}

/** A fetch that records every request it passes on (method, path, status). */
export function recordingFetch(inner: FetchLike): FetchLike & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const f = async (url: string, init: FetchInit) => {
    const entry: SentRequest = { method: init.method, url, path: new URL(url).pathname, status: 0 };
    sent.push(entry);
    try {
      const response = await inner(url, init);
      entry.status = response.status;
      return response;
    } catch (error) {
      entry.status = 'network error';
      throw error;
    }
  };
  return Object.assign(f, { sent });
}

/** A synthetic answer, as a fault-injecting wrapper returns it instead of calling the server. */
export function syntheticAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FetchResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    headers: { get: (name: string) => lower[name.toLowerCase()] ?? null },
    text: async () => JSON.stringify(body),
  };
}

/** The error envelope the server sends, for synthetic answers. */
export function envelope(errorCode: string, path: string) {
  return { timeStamp: Date.now(), message: errorCode, infoLink: '', path, errorCode, details: [] };
}

/** A sleep that waits for nothing and records how long it was asked to wait. */
export function recordingSleep(): ((ms: number) => Promise<void>) & { waits: number[] } {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return Object.assign(sleep, { waits });
}

/** What most SDK suites start with: a real server, a funded sandbox account and a TLS fetch. */
export interface SdkServer {
  server: TestServer;
  account: TestAccount;
  fetch: ReturnType<typeof tlsFetch>;
  close(): Promise<void>;
}

export async function startSdkServer(): Promise<SdkServer> {
  const server = await startTestServer();
  const account = await server.admin.createAccount({ environment: 'sandbox', fund: 1000 });
  const fetch = tlsFetch();
  return {
    server,
    account,
    fetch,
    async close() {
      await fetch.close();
      await server.close();
    },
  };
}

/** An SdkServer with a GiftCards and a Topups client on its sandbox bases. */
export interface SdkClients {
  s: SdkServer;
  giftcards: GiftCards;
  topups: Topups;
}

/**
 * For a describe: an SdkServer and its two sandbox clients, started before its tests and handed to
 * `ready` (the suite keeps what it uses), closed after them.
 *
 * @example
 * let giftcards: GiftCards;
 * sdkClientsForSuite((c) => ({ giftcards } = c));
 */
export function sdkClientsForSuite(ready: (clients: SdkClients) => void) {
  let s: SdkServer | undefined;
  before(async () => {
    s = await startSdkServer();
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    ready({ s, giftcards, topups: new Topups(sandboxOptions(s.server, s.account, 'topups', s.fetch)) });
  });
  after(() => s?.close());
}

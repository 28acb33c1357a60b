/**
 * The options every client takes, and how an environment name becomes base URLs.
 * The SDK only needs a `fetch`-shaped function; these minimal types let the platform fetch, undici's
 * fetch or a test double be passed without depending on any one of their type declarations.
 */

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /**
   * The body as a `ReadableStream` of bytes; read only by downloads (`Admin.backup.download`). Typed
   * loosely: the platform's and undici's stream types do not match each other.
   */
  body?: unknown;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** What `onRequest` receives before every attempt; `headers` may be changed (e.g. a tracing header). */
export interface RequestInfo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/**
 * Options of one call, the last argument of every method. They apply to that call only and win over
 * the client's options.
 *
 * @example
 * const controller = new AbortController();
 * await airgift.topups.operators.list({ size: 50 }, { signal: controller.signal, timeoutMs: 5000 });
 */
export interface RequestOptions {
  /** Cancels the call (and its retries): it fails with `errorCode` `ABORTED`, never retried. */
  signal?: AbortSignal;
  /** Longest wait for each attempt's answer, ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Headers added to this call's request (after the client's `headers`). */
  headers?: Record<string, string>;
  /** Attempts in all for this call (default: the client's `retry.maxAttempts`; 1 for no retry). */
  maxAttempts?: number;
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** First backoff step in ms (default 500); step n waits between half and all of base × 2^(n-1). */
  baseDelayMs?: number;
  /** Longest backoff wait in ms (default 10,000); a `Retry-After` is honoured up to `maxRetryAfterMs`. */
  maxDelayMs?: number;
  /** Longest `Retry-After` honoured, ms (default 60,000); a longer one is not retried. */
  maxRetryAfterMs?: number;
  /** How to wait (default setTimeout); tests pass one that records the waits. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface CommonOptions {
  /** Replaces the platform fetch (e.g. one bound to a dispatcher trusting a private CA). */
  fetch?: FetchLike;
  retry?: RetryOptions;
  /** Called before every attempt of every request, the token request included. */
  onRequest?: (info: RequestInfo) => void | Promise<void>;
  /** Milliseconds since the epoch (default Date.now); tokens expire by this clock. */
  now?: () => number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Longest wait for one attempt's answer, ms (default 30,000; 0 for none). A timed-out attempt
   * counts as a network error: retried when the call may be, else `errorCode` `TIMEOUT`.
   */
  timeoutMs?: number;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** A named environment of an airgift server; its bases are the server's defaults under `serverUrl`. */
export interface EnvironmentOptions extends Credentials, CommonOptions {
  environment: 'live' | 'sandbox';
  /** Root of the airgift server (default `https://localhost:8443`, where `npm start` listens). */
  serverUrl?: string;
}

/** Explicit bases: any deployment, or a test server whose audiences differ from where it listens. */
export interface BaseUrlOptions extends Credentials, CommonOptions {
  /** The product base to call, e.g. `https://giftcards-sandbox.example.com`. */
  baseUrl: string;
  /** The token service base; the token endpoint is `{authUrl}/oauth/token`. */
  authUrl: string;
  /** The token audience (default `baseUrl`): the product base as the server knows it. */
  audience?: string;
}

export type ClientOptions = EnvironmentOptions | BaseUrlOptions;

export const DEFAULT_SERVER_URL = 'https://localhost:8443';

export interface ResolvedBases {
  baseUrl: string;
  authUrl: string;
  audience: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveBases(options: ClientOptions, product: 'giftcards' | 'topups'): ResolvedBases {
  if ('baseUrl' in options && options.baseUrl) {
    const baseUrl = trimSlash(options.baseUrl);
    return {
      baseUrl,
      authUrl: trimSlash(options.authUrl),
      audience: trimSlash(options.audience ?? baseUrl),
    };
  }
  const env = (options as EnvironmentOptions).environment;
  if (env !== 'live' && env !== 'sandbox') {
    throw new TypeError(`environment must be 'live' or 'sandbox' (or give baseUrl and authUrl)`);
  }
  const root = trimSlash((options as EnvironmentOptions).serverUrl ?? DEFAULT_SERVER_URL);
  const baseUrl = `${root}/${product}${env === 'sandbox' ? '-sandbox' : ''}`;
  return { baseUrl, authUrl: `${root}/auth`, audience: baseUrl };
}

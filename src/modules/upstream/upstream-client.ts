import { quoteNumbersOf } from '../../../sdk/src/lossless-json.ts';
import { assertOutsideTransaction } from '../../db/connection-guard.ts';
import type { UpstreamProduct } from '../../db/schema.ts';
import { lazyPackage } from '../../lib/lazy-package.ts';

/**
 * The HTTP client of one upstream: an airgift or the original service, spoken to as any client
 * would. It gets its own OAuth tokens (client credentials at `{authUrl}/oauth/token`, the audience
 * being the product base URL, as airgift's token service wants), keeps one per audience until
 * shortly before it expires, and fetches a new one once when a call answers 401. It sends the
 * product's vendor media type, checks TLS against the configured CA (else the system's), bounds
 * every call by `timeoutMs`, and reads card codes without loss (JSON numbers longer than 2^53).
 *
 * Every call ends in one of three answers, which is what the providers decide on:
 * - `answered`: the upstream answered (status, body, its errorCode), except as below;
 * - `unknown`: the request may have reached the upstream and we cannot know what it did: a timeout,
 *   a connection reset or closed after it was sent, or a 5xx other than a 503
 *   TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT (which says nothing was done, so it is `answered`);
 * - `notSent`: the request provably never left (connection refused, name not found, TLS handshake
 *   refused, no token).
 * Secrets and tokens never appear in an answer's reason or anywhere else this client writes.
 *
 * @example
 * const client = createUpstreamClient({ product: 'giftcards', baseUrl, authUrl, clientId, clientSecret, ca, timeoutMs: 30_000 });
 * const a = await client.call('POST', '/orders', { body: { productId: 5, quantity: 1, ... } });
 * if (a.kind === 'answered' && a.status === 200) ...; // a.body is the upstream's transaction
 */
export interface UpstreamTarget {
  product: UpstreamProduct;
  /** The product base, e.g. https://giftcards.example.com; also the tokens' audience. */
  baseUrl: string;
  /** The token service base, e.g. https://auth.example.com (the token is at /oauth/token). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM CA certificate(s) to check the upstream's TLS certificate against; null: the system's. */
  ca: string | null;
  timeoutMs: number;
}

export type UpstreamAnswer =
  | { kind: 'answered'; status: number; body: unknown; errorCode: string | null; message: string | null }
  | { kind: 'unknown'; reason: string }
  | { kind: 'notSent'; reason: string };

export interface CallOptions {
  query?: Record<string, string | number>;
  body?: unknown;
}

/** The vendor media type of each product, as the original service's clients send it. */
export const VENDOR_MEDIA_TYPES: Record<UpstreamProduct, string> = {
  giftcards: 'application/com.reloadly.giftcards-v1+json',
  topups: 'application/com.reloadly.topups-v1+json',
};

/** Fields whose JSON numbers may be longer than a double holds exactly. */
const LONG_NUMBER_KEYS = ['cardNumber', 'pinCode'];

/** Refresh a token min(60 s, 10% of its lifetime) before it expires. */
const EARLY_REFRESH_MS = 60_000;

/** Errors that happen before a single byte of the request is written. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface UpstreamClient {
  readonly target: Readonly<Omit<UpstreamTarget, 'clientSecret'>>;
  call(method: 'GET' | 'POST', path: string, options?: CallOptions): Promise<UpstreamAnswer>;
  /** Token requests made so far (the token cache's figure, for `upstream show` and tests). */
  tokenRequests(): number;
  close(): Promise<void>;
}

/** Loaded when the first upstream client is made (most deployments have none). */
const undici = lazyPackage<typeof import('undici')>('undici');

export function createUpstreamClient(target: UpstreamTarget, now: () => number = Date.now): UpstreamClient {
  const { Agent, request } = undici();
  const dispatcher = new Agent({
    connect: target.ca ? { ca: target.ca } : {},
    headersTimeout: target.timeoutMs,
    bodyTimeout: target.timeoutMs,
  });
  const baseUrl = target.baseUrl.replace(/\/+$/, '');
  const authUrl = target.authUrl.replace(/\/+$/, '');
  const tokens = new Map<string, { token: string; refreshAt: number }>();
  const pending = new Map<string, Promise<string | UpstreamAnswer>>();
  let tokenRequests = 0;

  /** One HTTP exchange, classified; never throws. */
  async function exchange(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<UpstreamAnswer> {
    try {
      const res = await request(url, {
        method,
        headers,
        body,
        dispatcher,
        signal: AbortSignal.timeout(target.timeoutMs),
      });
      const text = await res.body.text();
      let parsed: unknown = null;
      try {
        parsed = text === '' ? null : JSON.parse(quoteNumbersOf(text, LONG_NUMBER_KEYS));
      } catch {
        parsed = text;
      }
      const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
      const errorCode = typeof envelope.errorCode === 'string' ? envelope.errorCode : null;
      const message = typeof envelope.message === 'string' ? envelope.message : null;
      if (
        res.statusCode >= 500 &&
        !(res.statusCode === 503 && errorCode === 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT')
      ) {
        return { kind: 'unknown', reason: `HTTP ${res.statusCode} ${errorCode ?? ''}`.trim() };
      }
      return { kind: 'answered', status: res.statusCode, body: parsed, errorCode, message };
    } catch (error) {
      return classifyFailure(error);
    }
  }

  async function fetchToken(audience: string): Promise<string | UpstreamAnswer> {
    tokenRequests++;
    const requestedAt = now();
    const answer = await exchange(
      'POST',
      `${authUrl}/oauth/token`,
      { 'content-type': 'application/json', accept: 'application/json' },
      JSON.stringify({
        client_id: target.clientId,
        client_secret: target.clientSecret,
        grant_type: 'client_credentials',
        audience,
      }),
    );
    if (answer.kind !== 'answered') return { kind: 'notSent', reason: `token: ${answer.reason}` };
    const body = answer.body as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    if (answer.status !== 200 || typeof body?.access_token !== 'string') {
      const why = typeof body?.error === 'string' ? body.error : (answer.errorCode ?? '');
      return { kind: 'notSent', reason: `token: HTTP ${answer.status} ${why}`.trim() };
    }
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    const early = Math.min(EARLY_REFRESH_MS, lifetimeMs / 10);
    tokens.set(audience, { token: body.access_token, refreshAt: requestedAt + lifetimeMs - early });
    return body.access_token;
  }

  /** The audience's token, fetched once for concurrent callers. */
  async function tokenFor(audience: string): Promise<string | UpstreamAnswer> {
    const kept = tokens.get(audience);
    if (kept && now() < kept.refreshAt) return kept.token;
    let inFlight = pending.get(audience);
    if (!inFlight) {
      inFlight = fetchToken(audience).finally(() => pending.delete(audience));
      pending.set(audience, inFlight);
    }
    return inFlight;
  }

  async function call(method: 'GET' | 'POST', path: string, options: CallOptions = {}) {
    assertOutsideTransaction(`a call to the ${target.product} upstream`);
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const media = VENDOR_MEDIA_TYPES[target.product];
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 1; ; attempt++) {
      const token = await tokenFor(baseUrl);
      if (typeof token !== 'string') return token;
      const headers: Record<string, string> = { accept: media, authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = media;
      const answer = await exchange(method, url.toString(), headers, body);
      // a 401 means the upstream did nothing: a token it no longer takes is replaced, once
      if (answer.kind === 'answered' && answer.status === 401 && attempt === 1) {
        if (tokens.get(baseUrl)?.token === token) tokens.delete(baseUrl);
        continue;
      }
      return answer;
    }
  }

  return {
    target: {
      product: target.product,
      baseUrl,
      authUrl,
      clientId: target.clientId,
      ca: target.ca,
      timeoutMs: target.timeoutMs,
    },
    call,
    tokenRequests: () => tokenRequests,
    close: () => dispatcher.close(),
  };
}

/** A thrown request error as an answer: `notSent` only when nothing can have been written. */
function classifyFailure(error: unknown): UpstreamAnswer {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? 'ERROR';
  const reason = `${code}: ${e?.message ?? String(error)}`;
  return NOT_SENT_CODES.has(code) ? { kind: 'notSent', reason } : { kind: 'unknown', reason };
}

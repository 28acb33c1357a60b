import { AirgiftError, errorFromAnswer } from './errors.js';
import { AttemptSignal, aborted, describeNetworkFailure } from './network-failure.js';
import type { CommonOptions, FetchLike, RequestInfo, RequestOptions } from './options.js';
import { type WithRequestId, withRequestId } from './request-id.js';
import { backoffDelay, type RetryPolicy, retryAfterMs, retryPolicy } from './retry.js';

/** Query values; `undefined` and `null` are left out, booleans sent as `true`/`false`. */
export type QueryValue = string | number | boolean | null | undefined;
export type Query = { [name: string]: QueryValue };

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  /** Whether repeating the call is harmless, so it may be retried (default: GET only). */
  retryable?: boolean;
  /** The caller's per-call options (signal, timeout, headers, attempts). */
  options?: RequestOptions;
  /** A download: a 2xx answer's body is handed over as a stream, unread (`Answer.stream`). */
  stream?: boolean;
}

/** A raw answer with what the retry loop learnt on its way. */
export interface Answer {
  status: number;
  text: string;
  requestId: string | null;
  /** Attempts made, the last included (token refreshes not counted). */
  attempts: number;
  /** A download's body (`Call.stream`), when the answer is 2xx. */
  stream?: ReadableStream<Uint8Array>;
}

/** Supplies a bearer token; `invalidate` drops a token the server called expired. */
export interface Authorizer {
  /** `options` carries the caller's signal and timeout to a token request made on its behalf. */
  token(options?: RequestOptions): Promise<string>;
  invalidate(token: string): void;
}

export interface TransportOptions extends CommonOptions {
  baseUrl: string;
  accept: string;
  auth?: Authorizer;
}

function defaultFetch(): FetchLike {
  const f = (globalThis as { fetch?: unknown }).fetch;
  if (typeof f !== 'function') {
    throw new TypeError('No global fetch: pass a `fetch` function in the client options');
  }
  // Bound: browsers refuse a fetch called with another `this`.
  return f.bind(globalThis) as FetchLike;
}

/**
 * One base URL's HTTP: headers, bearer token, retries with jittered backoff on 429 (honouring
 * `Retry-After`), 503 and network errors for retryable calls, and one fresh token after a
 * `TOKEN_EXPIRED` answer. Everything else is returned to the caller, who decides what it means.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly fetch: FetchLike;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? defaultFetch();
    this.policy = retryPolicy(options.retry);
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.append(name, String(value));
    }
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends a call, retrying as the policy allows; any status comes back as an Answer. */
  async send(call: Call): Promise<Answer> {
    const url = this.url(call.path, call.query);
    const retryable = call.retryable ?? call.method === 'GET';
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const options = call.options ?? {};
    const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? this.policy.maxAttempts));
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let attempt = 0;
    let refreshedToken = false;
    for (;;) {
      attempt++;
      if (options.signal?.aborted) throw aborted(call, url, options.signal.reason);
      const headers: Record<string, string> = {
        accept: this.options.accept,
        ...this.options.headers,
        ...options.headers,
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const token = this.options.auth ? await this.options.auth.token(options) : null;
      if (token) headers.authorization = `Bearer ${token}`;
      const info: RequestInfo = { method: call.method, url, headers, body, attempt };
      await this.options.onRequest?.(info);

      let status: number;
      let text: string;
      let requestId: string | null;
      let retryAfter: string | null;
      let stream: ReadableStream<Uint8Array> | undefined;
      const attemptSignal = new AttemptSignal(timeoutMs, options.signal);
      try {
        const response = await this.fetch(url, {
          method: call.method,
          headers: info.headers,
          body,
          signal: attemptSignal.signal,
        });
        status = response.status;
        requestId = response.headers.get('x-request-id');
        retryAfter = response.headers.get('retry-after');
        if (call.stream && status >= 200 && status < 300) {
          if (!response.body) throw new TypeError('this fetch gives no response body stream');
          // Locked at once: undici cancels the body of a Response that is garbage-collected while
          // its body is unlocked, and the caller keeps only the body (a backup arrived empty so).
          stream = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TransformStream());
          text = '';
        } else text = await response.text();
      } catch (error) {
        if (options.signal?.aborted) throw aborted(call, url, options.signal.reason);
        const failure = describeNetworkFailure(error, attemptSignal.timedOut, timeoutMs);
        // A timeout is a network error like any other: the call may or may not have arrived. An
        // untrusted certificate or an unknown host fails the same way every time: not retried.
        if (retryable && failure.retryable && attempt < maxAttempts) {
          await this.policy.sleep(backoffDelay(this.policy, attempt));
          continue;
        }
        throw new AirgiftError({
          status: 0,
          errorCode: failure.errorCode,
          message: `${call.method} ${url} failed after ${attempt} attempt${attempt > 1 ? 's' : ''}: ${failure.reason}`,
          path: call.path,
          cause: error,
        });
      } finally {
        // The timeout covers the wait for the answer; the caller's signal also its streamed body.
        attemptSignal.dispose(stream !== undefined);
      }

      if (status === 401 && token && !refreshedToken && errorCodeOf(text) === 'TOKEN_EXPIRED') {
        // The token expired early by our clock's reckoning: one fresh token, the same attempt again.
        this.options.auth!.invalidate(token);
        refreshedToken = true;
        attempt--;
        continue;
      }
      if ((status === 429 || status === 503) && retryable && attempt < maxAttempts) {
        const asked = retryAfterMs(retryAfter, this.now());
        if (asked === null || asked <= this.policy.maxRetryAfterMs) {
          await this.policy.sleep(asked ?? backoffDelay(this.policy, attempt));
          continue;
        }
      }
      return { status, text, requestId, attempts: attempt, ...(stream && { stream }) };
    }
  }

  /** Sends a call and parses a 2xx answer as JSON (or with `parse`); anything else throws AirgiftError. */
  async json<T>(call: Call, parse: (text: string) => unknown = JSON.parse): Promise<WithRequestId<T>> {
    return this.parse<T>(await this.send(call), call, parse);
  }

  /** A 2xx answer's parsed body, carrying the answer's request id (see `withRequestId`). */
  parse<T>(answer: Answer, call: Call, parse: (text: string) => unknown = JSON.parse): WithRequestId<T> {
    if (answer.status < 200 || answer.status >= 300) throw this.error(answer, call);
    if (answer.text === '') return undefined as unknown as WithRequestId<T>;
    try {
      return withRequestId(parse(answer.text) as T, answer.requestId);
    } catch (error) {
      // A 2xx whose body is not JSON (a proxy's page, say): still one error type for the caller.
      throw new AirgiftError({
        status: answer.status,
        errorCode: 'INVALID_RESPONSE',
        message: `${call.method} ${call.path} answered ${answer.status} with a body that is not JSON`,
        requestId: answer.requestId,
        path: call.path,
        body: answer.text.slice(0, 1000),
        cause: error,
      });
    }
  }

  error(answer: Answer, call: Call): AirgiftError {
    return errorFromAnswer(answer.status, tryJson(answer.text), answer.requestId, call.path);
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorCodeOf(text: string): string | null {
  const body = tryJson(text) as { errorCode?: unknown } | null;
  return body && typeof body === 'object' && typeof body.errorCode === 'string' ? body.errorCode : null;
}

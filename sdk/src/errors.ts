import type { OAuthErrorCode, ServerErrorCode } from './error-codes.js';

/**
 * What the SDK reports when no usable answer came: `CONNECTION_REFUSED` (nothing listens there),
 * `CERTIFICATE_ERROR` (the server's TLS certificate is not trusted, expired or for another name; never
 * retried), `DNS_ERROR` (the host name does not resolve), `CONNECTION_RESET`, `TIMEOUT` (no answer
 * within `timeoutMs`), `ABORTED` (your `signal` fired; never retried), `NETWORK_ERROR` (anything else
 * the network did), `INVALID_RESPONSE` (a success whose body is not JSON).
 */
export type ClientErrorCode =
  | 'CONNECTION_REFUSED'
  | 'CERTIFICATE_ERROR'
  | 'DNS_ERROR'
  | 'CONNECTION_RESET'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE';

/**
 * Every `errorCode` an AirgiftError can carry: the server's documented codes, the token endpoint's
 * OAuth errors, the SDK's own, and `HTTP_<status>` for an error answer with neither envelope nor
 * OAuth body (a proxy's page, say). A misspelt code does not compile.
 */
export type ErrorCode = ServerErrorCode | OAuthErrorCode | ClientErrorCode | `HTTP_${number}`;

/** One field-level problem of a 400 answer, as the error envelope carries it. */
export interface ErrorDetail {
  field: string;
  issue: string;
}

export interface AirgiftErrorInit {
  status: number;
  errorCode: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  requestId?: string | null;
  path?: string | null;
  infoLink?: string | null;
  timeStamp?: number | null;
  body?: unknown;
  cause?: unknown;
}

/**
 * Every failure the SDK reports: an error answer of a product or admin API (the envelope
 * `{timeStamp, message, infoLink, path, errorCode, details}`), an OAuth error of the token endpoint
 * (`errorCode` is then the OAuth `error`, e.g. `invalid_client`), or a failure with no answer after
 * the last retry (`status` 0, `errorCode` one of ClientErrorCode naming the cause, the message the
 * cause's own words, the original error as `cause`).
 *
 * @example
 * try {
 *   await topups.orders.create({ operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031234567' } });
 * } catch (e) {
 *   if (e instanceof AirgiftError && e.errorCode === 'PHONE_RECENTLY_RECHARGED') console.log('try again later');
 *   else throw e;
 * }
 */
export class AirgiftError extends Error {
  /** HTTP status of the answer; 0 when no answer was received. */
  readonly status: number;
  /** The envelope's `errorCode` (e.g. `INSUFFICIENT_BALANCE`), the OAuth `error`, or a ClientErrorCode. */
  readonly errorCode: ErrorCode;
  /** Field-level problems of a validation error; empty when the server sent none. */
  readonly details: ErrorDetail[];
  /** The server's `X-Request-Id` of the failed request: quote it when you report a problem. */
  readonly requestId: string | null;
  /** The request path the server reports (or the one the SDK called). */
  readonly path: string | null;
  /** Link to the documentation of the error code. */
  readonly infoLink: string | null;
  /** Server time of the error, epoch milliseconds. */
  readonly timeStamp: number | null;
  /** The parsed answer body, as received. */
  readonly body: unknown;

  constructor(init: AirgiftErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'AirgiftError';
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
    this.path = init.path ?? null;
    this.infoLink = init.infoLink ?? null;
    this.timeStamp = init.timeStamp ?? null;
    this.body = init.body;
  }
}

/** Builds the error of a non-2xx answer from its body (envelope, OAuth error or anything else). */
export function errorFromAnswer(
  status: number,
  body: unknown,
  requestId: string | null,
  path: string,
): AirgiftError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  if (typeof b.errorCode === 'string') {
    return new AirgiftError({
      status,
      // As the server sent it: a code newer than this SDK is still passed on.
      errorCode: b.errorCode as ErrorCode,
      message: str(b.message) ?? b.errorCode,
      details: Array.isArray(b.details) ? (b.details as ErrorDetail[]) : [],
      requestId,
      path: str(b.path) ?? path,
      infoLink: str(b.infoLink),
      timeStamp: timeStampOf(b.timeStamp),
      body,
    });
  }
  if (typeof b.error === 'string') {
    return new AirgiftError({
      status,
      errorCode: b.error as ErrorCode,
      message: str(b.error_description) ?? b.error,
      requestId,
      path,
      body,
    });
  }
  return new AirgiftError({
    status,
    errorCode: `HTTP_${status}` as ErrorCode,
    message: typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`,
    requestId,
    path,
    body,
  });
}

/**
 * The envelope's `timeStamp` as epoch milliseconds: a number as sent, or the text `yyyy-MM-dd
 * HH:mm:ss` (UTC) that an account with the service's shapes gets.
 */
function timeStampOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  const m =
    typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value) : null;
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : null;
}

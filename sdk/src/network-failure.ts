import { AirgiftError, type ClientErrorCode } from './errors.js';

/**
 * Why a fetch threw, in words a person can act on. Platform fetches wrap the cause: Node's says
 * "fetch failed" and keeps the socket's error (ECONNREFUSED, SELF_SIGNED_CERT_IN_CHAIN, ...) one or
 * two `cause`s down. This walks the chain and names the first cause it recognises.
 *
 * @example
 * describeNetworkFailure(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), false, 30000)
 * // { errorCode: 'CONNECTION_REFUSED', retryable: true, reason: 'connection refused (ECONNREFUSED): ...' }
 */
export interface NetworkFailure {
  errorCode: ClientErrorCode;
  /** Whether another attempt could succeed (a certificate or a host name does not fix itself). */
  retryable: boolean;
  reason: string;
}

const CERTIFICATE_CODE =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH/;

export function describeNetworkFailure(error: unknown, timedOut: boolean, timeoutMs: number): NetworkFailure {
  if (timedOut) return { errorCode: 'TIMEOUT', retryable: true, reason: `no answer within ${timeoutMs} ms` };
  const chain = causes(error);
  for (const link of chain) {
    const code = typeof link.code === 'string' ? link.code : '';
    const said = `${link.message ?? ''}${code ? ` (${code})` : ''}`;
    if (code === 'ECONNREFUSED') {
      return {
        errorCode: 'CONNECTION_REFUSED',
        retryable: true,
        reason: `connection refused: nothing listens there (${said})`,
      };
    }
    if (CERTIFICATE_CODE.test(code)) {
      return {
        errorCode: 'CERTIFICATE_ERROR',
        retryable: false,
        reason: `the server's TLS certificate is not trusted: ${said}. Trust its CA (NODE_EXTRA_CA_CERTS=<ca file>, or a \`fetch\` option that trusts it)`,
      };
    }
    if (code === 'ENOTFOUND') {
      return { errorCode: 'DNS_ERROR', retryable: false, reason: `the host name does not resolve: ${said}` };
    }
    if (code === 'EAI_AGAIN') {
      return {
        errorCode: 'DNS_ERROR',
        retryable: true,
        reason: `the host name could not be resolved now: ${said}`,
      };
    }
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') {
      return { errorCode: 'CONNECTION_RESET', retryable: true, reason: `the connection was closed: ${said}` };
    }
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
      return { errorCode: 'TIMEOUT', retryable: true, reason: `connecting timed out: ${said}` };
    }
  }
  // Nothing recognised: the deepest cause is usually the most telling.
  const deepest = chain[chain.length - 1];
  const words = deepest
    ? `${deepest.message ?? String(deepest)}${typeof deepest.code === 'string' ? ` (${deepest.code})` : ''}`
    : String(error);
  return { errorCode: 'NETWORK_ERROR', retryable: true, reason: words };
}

interface Link {
  message?: string;
  code?: unknown;
}

function causes(error: unknown): Link[] {
  const chain: Link[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (typeof current !== 'object') {
      chain.push({ message: String(current) });
      break;
    }
    const link = current as Link & { cause?: unknown; errors?: unknown[] };
    chain.push(link);
    // An AggregateError (several addresses tried) keeps its causes in `errors`.
    current = link.cause ?? (Array.isArray(link.errors) ? link.errors[0] : undefined);
  }
  return chain;
}

/** The error of a call the caller's own `signal` cancelled. */
export function aborted(call: { method: string; path: string }, url: string, reason: unknown): AirgiftError {
  const why = reason instanceof Error ? reason.message : reason === undefined ? '' : String(reason);
  return new AirgiftError({
    status: 0,
    errorCode: 'ABORTED',
    message: `${call.method} ${url} was aborted by its signal${why ? `: ${why}` : ''}`,
    path: call.path,
    cause: reason,
  });
}

/**
 * The signal one attempt is sent with: it fires when the attempt's timeout runs out or when the
 * caller's signal fires, and says which.
 */
export class AttemptSignal {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | null;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);
  timedOut = false;

  constructor(
    timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.timer =
      timeoutMs > 0
        ? setTimeout(() => {
            this.timedOut = true;
            this.controller.abort();
          }, timeoutMs)
        : null;
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `keepCaller`: the caller's signal still aborts the fetch (a body being streamed to the caller). */
  dispose(keepCaller = false): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (!keepCaller) this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

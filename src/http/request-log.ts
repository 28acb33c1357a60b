import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactUrl } from '../lib/log-redaction.ts';

/**
 * The logger options with a request serializer (for the lines that carry a request: a 5xx Fastify's
 * own error handler logs) that logs the URL as the client sent it: the public
 * path (`/admin/accounts`, `/giftcards-sandbox/products`) and host, not the internal mount the
 * request was rewritten to (`/_admin/accounts`), which no operator can look up anywhere; query
 * parameters named like secrets and anything shaped like a secret or a token in it censored
 * (`lib/log-redaction.ts`).
 *
 * @example
 * Fastify({ logger: withPublicRequestUrls({ level: 'info' }) });
 * // {"req":{"method":"GET","url":"/admin/accounts","host":"localhost:8443",...},"msg":"..."}
 * (A request's access line is built in access-log.ts, with the same URL.)
 */
export function withPublicRequestUrls(
  logger: FastifyServerOptions['logger'] | undefined,
): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger ?? false;
  const options = logger as { serializers?: Record<string, unknown> };
  return {
    ...options,
    serializers: { ...options.serializers, req: publicRequest },
  } as FastifyServerOptions['logger'];
}

function publicRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.originalUrl ?? request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

type Logger = FastifyBaseLogger;
type Bindings = Parameters<Logger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<Logger['child']>[1]>;

/**
 * A request's logger, made the first time a line is written or asked of it. Fastify gives every
 * request a pino child (its request id bound), and a child of a logger with redaction paths
 * serialises its bindings through them: ~1.3 µs and the largest share of the allocations of an
 * order (a heap sampling of top-ups), for a logger that most requests never use (their access line
 * is built apart, access-log.ts). The line, when there is one, is the same.
 */
class LazyRequestLogger implements Logger {
  #made: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }
  get #logger(): Logger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }
  get level() {
    return this.#logger.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  // the methods pass their arguments on as given (pino's LogFn has overloads no one signature spells)
  fatal(...args: unknown[]) {
    Reflect.apply(this.#logger.fatal, this.#logger, args);
  }
  error(...args: unknown[]) {
    Reflect.apply(this.#logger.error, this.#logger, args);
  }
  warn(...args: unknown[]) {
    Reflect.apply(this.#logger.warn, this.#logger, args);
  }
  info(...args: unknown[]) {
    Reflect.apply(this.#logger.info, this.#logger, args);
  }
  debug(...args: unknown[]) {
    Reflect.apply(this.#logger.debug, this.#logger, args);
  }
  trace(...args: unknown[]) {
    Reflect.apply(this.#logger.trace, this.#logger, args);
  }
  silent(...args: unknown[]) {
    Reflect.apply(this.#logger.silent, this.#logger, args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger made only when used (LazyRequestLogger). */
export function lazyRequestLogger(
  this: FastifyInstance,
  logger: Logger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): Logger {
  return new LazyRequestLogger(logger, bindings, options);
}

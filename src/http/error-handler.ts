import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError, type ErrorCode, type ErrorDetail } from '../errors/error-codes.ts';
import { unavailableError } from '../errors/infrastructure-errors.ts';
import { OAuthError } from '../errors/oauth-error.ts';
import { maskSecrets } from '../lib/log-redaction.ts';
import { formatDateTime } from '../lib/time-format.ts';
import { MOUNTS } from './bases.ts';

/** The routes that take money: a failure there means the order or top-up was not taken. */
const PURCHASES = new Set([`POST ${MOUNTS.giftcards}/orders`, `POST ${MOUNTS.topups}/topups`]);

/**
 * The one place where failures become responses. Domain errors (AppError) carry their code; Fastify's
 * own errors (validation, bad JSON, body too large, wrong content type) are mapped to the catalogue;
 * the database being away is a 503 (`errors/infrastructure-errors.ts`), reported to `onUnavailable`
 * instead of logged per request; anything else is a 500 that leaks nothing and is logged with the
 * request id.
 *
 * Envelope (decisions §3): `{timeStamp, message, infoLink, path, errorCode, details}`. `timeStamp` is
 * epoch milliseconds, or `yyyy-MM-dd HH:mm:ss` (UTC) for an account with the service's shapes
 * (http/account-shapes.ts: gift card bases only).
 */
export function envelope(
  request: FastifyRequest,
  code: ErrorCode,
  message: string,
  details: ErrorDetail[],
  docsUrl: string,
) {
  // What the client sent is echoed (a path, a value in a message) with airgift secrets masked.
  const now = Date.now();
  return {
    timeStamp: request.shapes === 'service' ? formatDateTime(new Date(now)) : now,
    message: maskSecrets(message),
    infoLink: `${docsUrl}#${code}`,
    path: maskSecrets(originalPath(request)),
    errorCode: code,
    details: details.map((d) => ({ ...d, field: maskSecrets(d.field), issue: maskSecrets(d.issue) })),
  };
}

export function originalPath(request: FastifyRequest): string {
  const url = request.originalUrl ?? request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function sendError(reply: FastifyReply, error: AppError, docsUrl: string) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json')
    .send(envelope(reply.request, error.code, error.message, error.details, docsUrl));
}

function fromFastifyError(error: FastifyError, contentType?: string): AppError | null {
  if (error.validation) {
    const details = error.validation.map((v) => ({
      field: fieldOf(v.instancePath, v.params as Record<string, unknown>, error.validationContext),
      issue: v.message ?? 'is invalid',
    }));
    return new AppError('INVALID_REQUEST', 'Request validation failed', details);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', unsupportedMediaTypeMessage(contentType));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('REQUEST_TOO_LARGE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_REQUEST', 'The JSON body is empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('INVALID_REQUEST', 'The body is not valid JSON');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new AppError('INVALID_REQUEST', 'The body is not valid JSON');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('INVALID_REQUEST', error.message);
  }
  return null;
}

/** The 415 names the type that was sent and the one to send. */
function unsupportedMediaTypeMessage(contentType: string | undefined): string {
  const sent = contentType?.split(';')[0].trim().slice(0, 100);
  return `${sent ? `Content-Type ${sent} is not supported` : 'The body has no Content-Type'}: send it as JSON with Content-Type: application/json`;
}

/**
 * A number the database cannot hold (PostgreSQL 22003, `numeric_value_out_of_range`: an id above
 * 2^31-1 for an integer column, say) can only have come from the request: a 400, not a 500.
 */
function fromDatabaseInputError(error: unknown): AppError | null {
  if ((error as { code?: unknown })?.code === '22003') {
    return new AppError('INVALID_REQUEST', 'A number in the request is out of range', [
      { field: 'request', issue: 'a number is larger than this field can hold' },
    ]);
  }
  return null;
}

function fieldOf(instancePath: string, params: Record<string, unknown>, context?: string): string {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
  const extra = typeof params.additionalProperty === 'string' ? params.additionalProperty : undefined;
  const leaf = missing ?? extra;
  const joined = [path, leaf].filter(Boolean).join('.');
  return joined || context || 'body';
}

/**
 * Installs the error handler, the 404 handler and the 405 detection. Every route is also entered
 * into a shadow router so that an unknown method on a known path answers 405 with `Allow`.
 */
export function installErrorHandling(
  app: FastifyInstance,
  docsUrl: string,
  onUnavailable: (error: unknown) => void = () => {},
) {
  const shadow = FindMyWay();
  const methodsByRoute = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let set = methodsByRoute.get(route.url);
    if (!set) {
      set = new Set();
      methodsByRoute.set(route.url, set);
      shadow.on('GET', route.url, () => undefined, { pattern: route.url });
    }
    for (const m of methods) set.add(m);
  });

  app.setErrorHandler((error: FastifyError | AppError | OAuthError, request, reply) => {
    if (error instanceof OAuthError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ error: error.error, error_description: maskSecrets(error.message) });
    }
    const unavailable = unavailableError(
      error,
      PURCHASES.has(`${request.method} ${request.routeOptions?.url ?? ''}`),
    );
    if (unavailable) {
      onUnavailable(error);
      if (request.base?.kind !== 'auth') return sendError(reply, unavailable, docsUrl);
      // The token endpoint answers in OAuth's form: RFC 6749's temporarily_unavailable.
      return reply
        .code(503)
        .headers(unavailable.headers)
        .send({ error: 'temporarily_unavailable', error_description: unavailable.message });
    }
    const appError =
      error instanceof AppError
        ? error
        : (fromFastifyError(error, request.headers['content-type']) ?? fromDatabaseInputError(error));
    if (appError && request.base?.kind === 'auth' && [400, 413, 415].includes(appError.status)) {
      // The token endpoint answers a bad body in OAuth's form (decisions §2), not the envelope; a body
      // over BODY_LIMIT keeps its 413 (README), with RFC 6749's invalid_request.
      return reply
        .code(appError.status === 413 ? 413 : 400)
        .send({ error: 'invalid_request', error_description: maskSecrets(appError.message) });
    }
    if (appError) {
      // A 500 is a fault to investigate (with its stack); another 5xx is an answer the code chose
      // (the sandbox's 503, an upstream that is down): a warning, its code and message enough.
      if (appError.status === 500) request.log.error({ err: error }, 'request failed');
      else if (appError.status > 500)
        request.log.warn({ errorCode: appError.code, status: appError.status }, appError.message);
      return sendError(reply, appError, docsUrl);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new AppError('INTERNAL_SERVER_ERROR'), docsUrl);
  });

  app.setNotFoundHandler((request, reply) => {
    const found = shadow.find('GET' as HTTPMethod, request.url.split('?')[0]);
    const pattern = (found?.store as { pattern?: string } | undefined)?.pattern;
    const allowed = pattern ? methodsByRoute.get(pattern) : undefined;
    if (allowed && !allowed.has(request.method)) {
      reply.header('Allow', [...allowed].join(', '));
      return sendError(
        reply,
        new AppError('METHOD_NOT_SUPPORTED', `${request.method} is not supported on this path`),
        docsUrl,
      );
    }
    return sendError(
      reply,
      new AppError('RESOURCE_NOT_FOUND', `No resource at ${originalPath(request)}`),
      docsUrl,
    );
  });
}

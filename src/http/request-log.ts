import type { FastifyRequest, FastifyServerOptions } from 'fastify';
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

import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, whatever produced it (a route, the error handler, a 404):
 * - `Strict-Transport-Security` on answers over HTTPS (directly or through a trusted proxy): browsers
 *   and clients that honour it never try plain HTTP on these hosts again for a year.
 * - `X-Content-Type-Options: nosniff`, so a JSON answer is never run as script or rendered as HTML.
 * - `Referrer-Policy: no-referrer`, and on the HTML pages (`/docs`, `/docs/errors`) framing refused
 *   (`Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`, for older browsers).
 *
 * @example
 * installSecurityHeaders(app); // before the routes are registered
 */
export const HSTS = 'max-age=31536000';

export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', "frame-ancestors 'none'");
      reply.header('X-Frame-Options', 'DENY');
    }
    return payload;
  });
}

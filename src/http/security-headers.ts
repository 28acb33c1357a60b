import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, whatever produced it (a route, the error handler, a 404):
 * - `Strict-Transport-Security` on answers over HTTPS (directly or through a trusted proxy): browsers
 *   and clients that honour it never try plain HTTP on these hosts again for a year.
 * - `X-Content-Type-Options: nosniff`, so a JSON answer is never run as script or rendered as HTML.
 * - `Referrer-Policy: no-referrer`, and on the HTML pages (`/docs`, `/docs/errors`) framing refused
 *   (`frame-ancestors 'none'` added to the page's own Content-Security-Policy, or as the whole policy
 *   when it has none, and `X-Frame-Options: DENY` for older browsers), and `Permissions-Policy`
 *   turning off the powerful browser features none of the pages uses (camera, microphone,
 *   geolocation, payment, USB, sensors...), for the pages and anything they might ever embed.
 *
 * @example
 * installSecurityHeaders(app); // before the routes are registered
 */
export const HSTS = 'max-age=31536000';

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      // A page with a policy of its own (the reference pages, the dashboard) keeps it, framing refused too.
      const own = String(reply.getHeader('content-security-policy') ?? '').trim();
      if (!/frame-ancestors/.test(own)) {
        reply.header(
          'Content-Security-Policy',
          own ? `${own.replace(/;$/, '')}; frame-ancestors 'none'` : "frame-ancestors 'none'",
        );
      }
      reply.header('X-Frame-Options', 'DENY');
      reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    }
    return payload;
  });
}

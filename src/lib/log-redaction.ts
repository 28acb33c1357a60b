/**
 * What the server's logs never show (pino `redact`): credentials in request headers, client secrets
 * and tokens in bodies or objects logged with a request or an error. Each path is censored to
 * `[redacted]` wherever a log line carries it. Add a path here when a new secret travels through
 * logged objects (an upstream's key, a webhook's signing secret).
 *
 * @example
 * Fastify({ logger: { level: 'info', redact: LOG_REDACTION } });
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-admin-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-admin-key"]',
  'authorization',
  'req.body.client_secret',
  'body.client_secret',
  'client_secret',
  '*.client_secret',
  'clientSecret',
  '*.clientSecret',
  'access_token',
  '*.access_token',
  'token',
  '*.token',
  'adminKey',
  '*.adminKey',
  'cardNumber',
  '*.cardNumber',
  'pinCode',
  '*.pinCode',
  'pinDetail',
  '*.pinDetail',
];

export const LOG_REDACTION = { paths: LOG_REDACT_PATHS, censor: '[redacted]' };

/**
 * airgift's own secret formats: client secrets (`sk_test_…`, `sk_live_…`), access tokens (JWTs) and
 * the token of a gift card's redeem link (`/r/<token>`).
 */
const SECRET_SHAPES = [
  /(?<=\/r\/)[A-Za-z0-9_-]{16,}/g,
  /\bsk_(?:test|live)_[A-Za-z0-9_-]{8,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
];

/**
 * Text a client sent that is echoed back (an error message naming a path or a value) or logged (a
 * URL), with anything shaped like an airgift secret censored: a client that pastes its secret into the
 * wrong field or a URL does not get it back in an answer or into the logs.
 *
 * @example
 * maskSecrets('/admin/credentials/sk_test_abcdefgh12345'); // '/admin/credentials/[redacted]'
 */
export function maskSecrets(text: string): string {
  let out = text;
  for (const shape of SECRET_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}

/** The request as logged: Fastify's usual fields, the URL with secrets masked. */
export const LOG_SERIALIZERS = {
  req(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
    return {
      method: req.method,
      url: maskSecrets(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

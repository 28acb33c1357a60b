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
 * airgift's own secret formats: client secrets (`sk_test_…`, `sk_live_…`), access tokens (JWTs),
 * webhook signing secrets (`whsec_…`), and the token of a gift card's redeem link (`/r/<token>`).
 */
const SECRET_SHAPES: Array<[marker: string, shape: RegExp, censored: string]> = [
  ['/r/', /(\/r\/)[A-Za-z0-9_-]{16,}/g, '$1[redacted]'],
  ['sk_', /\bsk_(?:test|live)_[A-Za-z0-9_-]{8,}/g, '[redacted]'],
  ['eyJ', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, '[redacted]'],
  ['whsec_', /\bwhsec_[A-Za-z0-9+/=_-]{8,}/g, '[redacted]'],
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
  // Each shape is searched for only where its fixed start occurs: every log line passes through
  // here, and a regular expression over a whole line costs microseconds, a substring search little.
  for (const [marker, shape, censored] of SECRET_SHAPES)
    if (out.includes(marker)) out = out.replace(shape, censored);
  return out;
}

/**
 * A query parameter whose name says it carries a secret (…key…, …token…, …secret…, …password…): its
 * value, up to the next `&`, `#`, quote or space (so it works on a URL and on a JSON log line alike).
 */
const SECRET_PARAMETER = /([?&][^=&#\s"]*(?:key|token|secret|password)[^=&#\s"]*=)[^&#\s"]*/gi;

/**
 * A URL as it may be logged: the values of query parameters named like secrets censored, and anything
 * shaped like an airgift secret masked.
 *
 * @example
 * redactUrl('/admin/accounts?key=abc&limit=5'); // '/admin/accounts?key=[redacted]&limit=5'
 */
export function redactUrl(url: string): string {
  return maskSecrets(url.includes('=') ? url.replace(SECRET_PARAMETER, '$1[redacted]') : url);
}

/**
 * The last pass over every log line, whatever wrote it (a request line, an error's message, a
 * warning): the secrets this process knows (the admin key) censored wherever they appear, as are
 * secret-named query parameters and anything shaped like an airgift secret. Values shorter than 12
 * characters are not searched for (they could censor ordinary words or numbers).
 *
 * @example
 * const mask = logLineMasker([adminKey]);
 * mask('{"url":"/admin/accounts?x=<admin key>"}'); // '{"url":"/admin/accounts?x=[redacted]"}'
 */
export function logLineMasker(known: string[]): (line: string) => string {
  // Each as written and as it appears inside a JSON string (quotes and backslashes escaped).
  const literals = known
    .filter((k) => k.length >= 12)
    .flatMap((k) => [...new Set([k, JSON.stringify(k).slice(1, -1)])]);
  return (line) => {
    let out = line;
    for (const literal of literals) if (out.includes(literal)) out = out.split(literal).join('[redacted]');
    return redactUrl(out);
  };
}

/** The request as logged: Fastify's usual fields, the URL redacted. */
export const LOG_SERIALIZERS = {
  req(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
    return {
      method: req.method,
      url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

/**
 * The logger options that keep secrets out of the log: redacted paths, the request serializer, and the
 * line masker over every line written (pino's `hooks.streamWrite`).
 *
 * @example
 * Fastify({ logger: { level: 'info', stream, ...logRedaction([adminKey]) } });
 */
export function logRedaction(known: string[]) {
  return {
    redact: LOG_REDACTION,
    serializers: LOG_SERIALIZERS,
    hooks: { streamWrite: logLineMasker(known) },
  };
}

/**
 * Field names whose values are never stored or shown again (the audit log, the request log): secrets,
 * passwords, tokens (the CSRF token too), one-time links and otpauth URIs, TOTP codes, card codes and
 * PINs, a stock import's codes file.
 */
const SECRET_FIELD =
  /secret|password|passphrase|token|authorization|api[-_]?key|adminkey|cardnumber|pincode|pindetail|^pin$|^code$|^codes$|^recoverycodes$|^cards$|^csv$|^link$|^uri$/i;

/**
 * A copy of a parsed JSON value (a request body, an answer) that can be stored: the value of every
 * field named like a secret replaced by `[redacted]` at any depth, strings with anything shaped like
 * an airgift secret masked (`maskSecrets`), and only what JSON can hold (no NUL characters, no lone
 * surrogates, which PostgreSQL's text refuses or alters).
 *
 * @example
 * maskSecretFields({ clientId: 'c1', clientSecret: 'sk_test_x', cards: [{ cardNumber: '1' }] });
 * // { clientId: 'c1', clientSecret: '[redacted]', cards: '[redacted]' }
 */
export function maskSecretFields(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return storableText(maskSecrets(value));
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (depth > 12) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => maskSecretFields(v, depth + 1));
  if (typeof value === 'object') {
    // a Decimal, a Date: what JSON makes of it
    const plain =
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
        ? JSON.parse(JSON.stringify(value))
        : value;
    if (plain === null || typeof plain !== 'object') return maskSecretFields(plain, depth + 1);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(plain)) {
      out[storableText(k)] = SECRET_FIELD.test(k) ? '[redacted]' : maskSecretFields(v, depth + 1);
    }
    return out;
  }
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A NUL or any surrogate: text without one is storable as it is. */
const MAYBE_UNSTORABLE = /[\0\ud800-\udfff]/;

/** Text PostgreSQL stores as given: no NUL, no lone surrogate. */
export function storableText(text: string): string {
  // Nearly every text (a request id, a path, a client id) has neither: one scan, no copy. The
  // replacements below scan it twice and the surrogate pattern looks behind at every character.
  if (!MAYBE_UNSTORABLE.test(text)) return text;
  return text.replaceAll(String.fromCharCode(0), '').replace(LONE_SURROGATE, '\ufffd');
}

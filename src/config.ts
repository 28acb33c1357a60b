import { resolve } from 'node:path';

/**
 * Every setting airgift reads, in one table: its environment variable, default, meaning and parser.
 * `loadConfig` reads them once at start and fails fast with every bad value named.
 * docs/configuration.md is generated from this table (`npm run docs:configuration`; a test checks it
 * is up to date), so a description is Markdown, and its links are relative to docs/.
 */
type Parser<T> = (raw: string) => T;

interface Setting<T> {
  env: string;
  description: string;
  default?: string;
  parse: Parser<T>;
}

const text: Parser<string> = (raw) => raw;

const integer =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw)) throw new Error(`expected a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`expected ${min}..${max}, got ${n}`);
    return n;
  };

const decimalText =
  (min: number, max: number): Parser<string> =>
  (raw) => {
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new Error(`expected a decimal from ${min} to ${max}, got "${raw}"`);
    }
    return raw;
  };

const boolean: Parser<boolean> = (raw) => {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`expected true or false, got "${raw}"`);
};

const url: Parser<string> = (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`expected a full URL such as https://localhost:8443/auth, got "${raw}"`);
  }
  if (parsed.protocol !== 'https:') throw new Error(`bases are served over HTTPS only, got "${raw}"`);
  if (parsed.search || parsed.hash) throw new Error(`a base URL has no query or fragment, got "${raw}"`);
  return raw.replace(/\/+$/, '');
};

const redisUrl: Parser<string> = (raw) => {
  if (!/^rediss?:\/\/[^\s]+$/.test(raw))
    throw new Error(`expected redis://host:port or rediss://..., got "${raw.replace(/:[^:@/]*@/, ':***@')}"`);
  return raw;
};

const mailUrl: Parser<string> = (raw) => {
  if (!/^smtps?:\/\/[^\s/]+(:\d+)?\/?$/.test(raw))
    throw new Error(
      `expected smtp://user:pass@host:port or smtps://..., got "${raw.replace(/:[^:@/]*@/, ':***@')}"`,
    );
  return raw;
};

const smsUrl: Parser<string> = (raw) => {
  if (!/^(smpp|ssmpp|twilio):\/\/[^\s/?]+\/?(\?bind=(transceiver|transmitter))?$/.test(raw))
    throw new Error(
      `expected smpp://system_id:password@host:port or twilio://SID:TOKEN@api.twilio.com, got "${raw.replace(/:[^:@/]*@/, ':***@')}"`,
    );
  return raw;
};

const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A PostgreSQL memory size: `32MB`, `128kB`, `1GB`. */
const memorySize: Parser<string> = (raw) => {
  if (!/^\d+(kB|MB|GB)$/.test(raw)) throw new Error(`expected a size such as 32MB, got "${raw}"`);
  return raw;
};

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if (!values.includes(raw as T)) throw new Error(`expected one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };

function setting<T>(
  env: string,
  parse: Parser<T>,
  description: string,
  def: string,
): Setting<T> & { default: string };
function setting<T>(env: string, parse: Parser<T>, description: string): Setting<T> & { default?: undefined };
function setting<T>(env: string, parse: Parser<T>, description: string, def?: string): Setting<T> {
  return { env, parse, description, default: def };
}

/** The schema. Order here is the order of docs/configuration.md. */
export const SETTINGS = {
  port: setting('PORT', integer(0, 65535), 'Port of the one HTTPS listener for every base.', '8443'),
  host: setting('HOST', text, 'Interface to listen on.', '0.0.0.0'),
  dataDir: setting(
    'DATA_DIR',
    text,
    'Embedded database (`pgdata/`), TLS files, generated keys, the sandbox credentials. It shares `./data` with the versioned `data/seed/` and `data/operators/`: to start afresh remove `data/pgdata` (and the rest the server wrote), never the whole folder.',
    './data',
  ),
  databaseUrl: setting(
    'DATABASE_URL',
    text,
    'PostgreSQL URL; when unset, embedded PGlite in `DATA_DIR/pgdata` ([embedded-database.md](embedded-database.md)). Without a user name it connects as `PGUSER`, else the OS user, as `psql` does.',
  ),
  databasePoolSize: setting(
    'DATABASE_POOL_SIZE',
    integer(1, 500),
    'PostgreSQL connections per process.',
    '10',
  ),
  databasePreparedStatements: setting(
    'DATABASE_PREPARED_STATEMENTS',
    boolean,
    "PostgreSQL: the order path's and the outbox's hot statements are named prepared statements, parsed and planned once per connection (`db/prepared.ts`). `false` behind a pooler in transaction mode that cannot keep them (PgBouncer before 1.21, or without `max_prepared_statements`).",
    'true',
  ),
  pgliteSharedBuffers: setting(
    'PGLITE_SHARED_BUFFERS',
    memorySize,
    "The embedded database's `shared_buffers`: its page cache inside the server's process, which WebAssembly never gives back once used. Data files are read through the kernel's page cache as well, so a small value costs little.",
    '16MB',
  ),
  databaseGuard: setting(
    'DATABASE_GUARD',
    oneOf('auto', 'on', 'off'),
    "`on`: a code path that holds a database connection (a transaction, or the embedded database's only connection) and asks for another, or calls the network, throws instead of waiting for itself (`db/connection-guard.ts`); `auto`: on when `NODE_ENV` is `development` or `test` (`npm run dev`, `npm test`). See [embedded-database.md](embedded-database.md#one-connection).",
    'auto',
  ),
  publicUrl: setting('PUBLIC_URL', url, 'Root the default bases hang from.', 'https://localhost:$PORT'),
  authUrl: setting('AUTH_URL', url, 'Token service base.', '$PUBLIC_URL/auth'),
  giftcardsUrl: setting('GIFTCARDS_URL', url, 'Gift card service, live.', '$PUBLIC_URL/giftcards'),
  giftcardsSandboxUrl: setting(
    'GIFTCARDS_SANDBOX_URL',
    url,
    'Gift card service, sandbox.',
    '$PUBLIC_URL/giftcards-sandbox',
  ),
  topupsUrl: setting('TOPUPS_URL', url, 'Top-up service, live.', '$PUBLIC_URL/topups'),
  topupsSandboxUrl: setting(
    'TOPUPS_SANDBOX_URL',
    url,
    'Top-up service, sandbox.',
    '$PUBLIC_URL/topups-sandbox',
  ),
  adminUrl: setting('ADMIN_URL', url, "The operator's admin API.", '$PUBLIC_URL/admin'),
  dashboardUrl: setting('DASHBOARD_URL', url, 'The account dashboard (web pages).', '$PUBLIC_URL/dashboard'),
  consoleUrl: setting('CONSOLE_URL', url, "The operator's console (web pages).", '$PUBLIC_URL/console'),
  webSessionHours: setting(
    'WEB_SESSION_HOURS',
    integer(1, 720),
    'Dashboard and console: how long a sign-in lasts, hours.',
    '12',
  ),
  webLockoutFailures: setting(
    'WEB_LOCKOUT_FAILURES',
    integer(1, 1000),
    'Dashboard and console: failed sign-ins of one e-mail from one address within `WEB_LOCKOUT_MINUTES` that lock it there.',
    '5',
  ),
  webLockoutAddressFailures: setting(
    'WEB_LOCKOUT_ADDRESS_FAILURES',
    integer(0, 100_000),
    'Dashboard and console: failed sign-ins from one address, any e-mails, within `WEB_LOCKOUT_MINUTES` that refuse it (`0`: no limit).',
    '20',
  ),
  webLockoutMinutes: setting(
    'WEB_LOCKOUT_MINUTES',
    integer(1, 1440),
    'Dashboard and console: the lock-out window, minutes.',
    '15',
  ),
  tls: setting(
    'TLS',
    oneOf('on', 'off'),
    '`off` only behind a TLS-terminating proxy listed in `TRUSTED_PROXIES`.',
    'on',
  ),
  tlsCertFile: setting(
    'TLS_CERT_FILE',
    text,
    'PEM certificate chain; unset: a development CA in `DATA_DIR/tls`.',
  ),
  tlsKeyFile: setting('TLS_KEY_FILE', text, 'PEM private key of `TLS_CERT_FILE`.'),
  trustedProxies: setting(
    'TRUSTED_PROXIES',
    list,
    'Comma-separated IPs/CIDRs whose `X-Forwarded-Proto`/`-For` are believed.',
    '',
  ),
  adminKey: setting('ADMIN_KEY', text, 'Admin API key; unset: generated into `DATA_DIR/admin.key`.'),
  tokenSigningKey: setting(
    'TOKEN_SIGNING_KEY',
    text,
    'HS256 key for access tokens (32+ characters); unset: generated into `DATA_DIR`. Give every server of one deployment the same key.',
  ),
  tokenTtlLive: setting(
    'TOKEN_TTL_LIVE',
    integer(60, 31_536_000),
    'Live token lifetime, seconds.',
    '5184000',
  ),
  tokenTtlSandbox: setting(
    'TOKEN_TTL_SANDBOX',
    integer(1, 31_536_000),
    'Sandbox token lifetime, seconds.',
    '86400',
  ),
  bodyLimit: setting(
    'BODY_LIMIT',
    integer(1024, 10_485_760),
    'Largest request body, bytes (larger: 413 `REQUEST_TOO_LARGE`).',
    '65536',
  ),
  headerLimit: setting(
    'HEADER_LIMIT',
    integer(1024, 1_048_576),
    'Largest request head (request line and every header together), bytes (larger: 431 `REQUEST_HEADERS_TOO_LARGE`).',
    '16384',
  ),
  fxMarginPercent: setting(
    'FX_MARGIN_PERCENT',
    decimalText(0, 50),
    'Margin added to every currency conversion, percent (e.g. `1.5`).',
    '0',
  ),
  giftcardSmsFee: setting(
    'GIFTCARD_SMS_FEE',
    decimalText(0, 100),
    'Gift cards: fee per card, in USD, when `recipientPhoneDetails` is given (converted to the account currency; see [giftcards.md](giftcards.md#price-of-an-order)).',
    '0.10',
  ),
  orderMaxQuantity: setting(
    'ORDER_MAX_QUANTITY',
    integer(1, 1000),
    'Gift cards: most cards in one order.',
    '10',
  ),
  cardCodesKey: setting(
    'CARD_CODES_KEY',
    text,
    'AES-256-GCM key of the stored redeem codes and top-up PIN vouchers (base64, 32 bytes); unset: generated into `DATA_DIR/card-codes.key`. Keys derived from it also seal webhook, upstream and two-step sign-in secrets: keep it as safe as the codes ([operations.md](operations.md#backups-and-restore)).',
  ),
  sandboxProcessingSeconds: setting(
    'SANDBOX_PROCESSING_SECONDS',
    integer(0, 86_400),
    'Sandbox gift cards: how long test products 21 and 24 stay PROCESSING / FAILED ([sandbox.md](sandbox.md)).',
    '5',
  ),
  sandboxPreOrderSeconds: setting(
    'SANDBOX_PREORDER_SECONDS',
    integer(0, 86_400),
    'Sandbox gift cards: how long a pre-order of test product 22 stays PENDING.',
    '30',
  ),
  orderBatchMax: setting(
    'ORDER_BATCH_MAX',
    integer(1, 1000),
    'Most orders of one account that share one database transaction (the group commit, both products); 1 turns batching off, every order in a transaction of its own (for bisecting).',
    '64',
  ),
  fulfilmentPollMs: setting(
    'FULFILMENT_POLL_MS',
    integer(100, 3_600_000),
    'How often the background worker looks for gift card orders whose next step is due (and pre-orders that new stock can fill), milliseconds.',
    '1000',
  ),
  bootstrapSandbox: setting(
    'BOOTSTRAP_SANDBOX_ACCOUNT',
    boolean,
    'On an empty database, create a funded sandbox account and print its credentials.',
    'true',
  ),
  topupRecentRechargeSeconds: setting(
    'TOPUP_RECENT_RECHARGE_SECONDS',
    integer(0, 86_400),
    'Top-ups: a number topped up by an account less than this many seconds ago is refused (`PHONE_RECENTLY_RECHARGED`).',
    '120',
  ),
  topupSandboxProcessingSeconds: setting(
    'TOPUP_SANDBOX_PROCESSING_SECONDS',
    integer(0, 86_400),
    'Sandbox top-ups: how long top-ups to the test numbers ending 99990/99991 stay PROCESSING ([sandbox.md](sandbox.md#top-ups)).',
    '30',
  ),
  topupWorkerIntervalMs: setting(
    'TOPUP_WORKER_INTERVAL_MS',
    integer(100, 3_600_000),
    'How often the background worker looks for PROCESSING top-ups whose check is due, milliseconds.',
    '1000',
  ),
  upstreamTimeoutSeconds: setting(
    'UPSTREAM_TIMEOUT_SECONDS',
    integer(1, 600),
    'Live fulfilment by an upstream: how long one call to it may take before its outcome counts as unknown and the order is reconciled, seconds ([selling-live.md](selling-live.md)).',
    '30',
  ),
  upstreamRecheckMs: setting(
    'UPSTREAM_RECHECK_MS',
    integer(100, 3_600_000),
    'Live fulfilment by an upstream: how long an order or top-up PROCESSING there (or whose outcome is unknown) waits before the upstream is asked again, milliseconds.',
    '3000',
  ),
  workerLeaseSeconds: setting(
    'WORKER_LEASE_SECONDS',
    integer(1, 3600),
    'How long a server holds a background job it took (a lease on the row); a job of a server that died is taken over after this ([operations.md](operations.md#several-servers-and-crashes)).',
    '30',
  ),
  webhookPollMs: setting(
    'WEBHOOK_POLL_MS',
    integer(100, 3_600_000),
    'How often the worker looks for webhook deliveries that are due, milliseconds.',
    '1000',
  ),
  webhooksAllowPrivate: setting(
    'WEBHOOKS_ALLOW_PRIVATE',
    boolean,
    'Allow webhook endpoints on private, loopback and link-local addresses (development and tests only; [webhooks.md](webhooks.md#targets-ssrf)).',
    'false',
  ),
  webhooksCaFile: setting(
    'WEBHOOKS_CA_FILE',
    text,
    'PEM file of extra CA certificates trusted for webhook endpoints (a private CA), besides the system ones.',
  ),
  upstreamSyncMinutes: setting(
    'UPSTREAM_SYNC_MINUTES',
    decimalText(0, 10_080),
    "How often the worker syncs each product's live catalogue from its upstream, minutes (decimals allowed); `0`: only by `airgift catalog sync` ([selling-live.md](selling-live.md#the-live-catalogue-sync-and-margin)).",
    '60',
  ),
  smtpUrl: setting(
    'SMTP_URL',
    mailUrl,
    "Mail server of every e-mail airgift sends: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…` (implicit TLS); unset: e-mails are rendered and kept, not sent, and the console's Outbox shows them ([delivery.md](delivery.md#configuration)).",
  ),
  smtpFrom: setting(
    'SMTP_FROM',
    text,
    'From of every e-mail, `"Name <address>"`; an account\'s display name replaces the name on its gift cards\' e-mails.',
    'airgift <no-reply@localhost>',
  ),
  smtpPoolSize: setting('SMTP_POOL_SIZE', integer(1, 100), 'Connections kept open to `SMTP_URL`.', '5'),
  smtpDkimDomain: setting(
    'SMTP_DKIM_DOMAIN',
    text,
    'DKIM: the signing domain (`d=`); with the selector and the key file, e-mails are signed.',
  ),
  smtpDkimSelector: setting('SMTP_DKIM_SELECTOR', text, 'DKIM: the selector (`s=`).'),
  smtpDkimKeyFile: setting('SMTP_DKIM_KEY_FILE', text, 'DKIM: PEM file of the private key.'),
  smsUrl: setting(
    'SMS_URL',
    smsUrl,
    'SMS service: `smpp://system_id:password@host:2775` (SMPP 3.4) or `twilio://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com`; unset: text messages are rendered and kept, not sent.',
  ),
  smsFrom: setting(
    'SMS_FROM',
    text,
    'Sender id of text messages (a number, or up to 11 letters and digits).',
    'airgift',
  ),
  messagingCaFile: setting(
    'MESSAGING_CA_FILE',
    text,
    'PEM file of extra CA certificates trusted for the mail server and the SMS API (a private CA).',
  ),
  messagePollMs: setting(
    'MESSAGE_POLL_MS',
    integer(100, 3_600_000),
    'How often the worker looks for e-mails and text messages that are due, milliseconds.',
    '1000',
  ),
  redeemLinkDays: setting(
    'REDEEM_LINK_DAYS',
    integer(1, 3650),
    "Gift cards: how long the link in a recipient's message opens the redeem page, days.",
    '90',
  ),
  requestLogDays: setting(
    'REQUEST_LOG_DAYS',
    integer(0, 3650),
    "How long each account's API request log is kept (the dashboard's Request log), days; 0: no request is logged.",
    '30',
  ),
  redisUrl: setting(
    'REDIS_URL',
    redisUrl,
    'Redis that the servers of one deployment share for the rate limits (`redis://host:6379`, `rediss://` for TLS); unset: each process counts alone ([operations.md](operations.md#rate-limits)).',
  ),
  redisKeyPrefix: setting(
    'REDIS_KEY_PREFIX',
    text,
    'Put before every Redis key airgift writes (`airgift:token:client:…`, `airgift:api:sandbox:7`), so deployments sharing a Redis keep apart.',
    'airgift:',
  ),
  rateLimitWindowSeconds: setting(
    'RATE_LIMIT_WINDOW_SECONDS',
    integer(1, 3600),
    'Length of the rate limit window, seconds.',
    '10',
  ),
  rateLimitTokenRequests: setting(
    'RATE_LIMIT_TOKEN_REQUESTS',
    integer(0, 1_000_000),
    'Tokens issued per `client_id` per window (`0`: no limit); refused requests are not counted here.',
    '200',
  ),
  rateLimitTokenFailures: setting(
    'RATE_LIMIT_TOKEN_FAILURES',
    integer(0, 1_000_000),
    'Refused token requests per `client_id` and client address per window before that pair gets 429 (`0`: no limit).',
    '20',
  ),
  rateLimitTokenAddressFailures: setting(
    'RATE_LIMIT_TOKEN_ADDRESS_FAILURES',
    integer(0, 1_000_000),
    'Refused token requests per client address per window before that address gets 429 (`0`: no limit).',
    '100',
  ),
  rateLimitApiRequests: setting(
    'RATE_LIMIT_API_REQUESTS',
    integer(0, 1_000_000),
    'Product API requests per account and environment per window, both products together (`0`: no limit).',
    '1000',
  ),
  rateLimitAdminFailures: setting(
    'RATE_LIMIT_ADMIN_FAILURES',
    integer(0, 1_000_000),
    'Failed admin key checks per client address per `RATE_LIMIT_ADMIN_WINDOW_SECONDS` before that address gets 429 (`0`: no limit).',
    '10',
  ),
  rateLimitAdminWindowSeconds: setting(
    'RATE_LIMIT_ADMIN_WINDOW_SECONDS',
    integer(1, 86_400),
    'Window of `RATE_LIMIT_ADMIN_FAILURES`, seconds.',
    '300',
  ),
  shutdownGraceSeconds: setting(
    'SHUTDOWN_GRACE_SECONDS',
    integer(0, 3600),
    'On SIGTERM or SIGINT, how long requests in flight may take to finish before the server closes them and exits ([operations.md](operations.md#shutdown)).',
    '10',
  ),
  logLevel: setting(
    'LOG_LEVEL',
    oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'Log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
    'info',
  ),
} as const;

type Settings = typeof SETTINGS;
type Parsed<S> = S extends Setting<infer T> ? (S extends { default: string } ? T : T | undefined) : never;

export type Config = { -readonly [K in keyof Settings]: Parsed<Settings[K]> };

export class ConfigError extends Error {}

/** Reads every setting from `env` once; throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  const resolved: Record<string, string> = {};
  for (const [key, s] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    let raw = env[s.env];
    if (raw === undefined || raw === '') raw = s.default;
    if (raw === undefined) {
      out[key] = undefined;
      continue;
    }
    // Defaults may refer to settings above them ($PORT, $PUBLIC_URL).
    raw = raw.replace(/\$([A-Z_]+)/g, (_, name: string) => resolved[name] ?? env[name] ?? '');
    resolved[s.env] = raw;
    try {
      out[key] = s.parse(raw);
      if (typeof out[key] === 'string') resolved[s.env] = out[key] as string;
    } catch (error) {
      problems.push(`${s.env}: ${(error as Error).message}`);
    }
  }
  const config = out as Config;
  if (config.tls === 'off' && config.trustedProxies.length === 0) {
    problems.push(
      'TLS=off: set TRUSTED_PROXIES to the proxy that terminates TLS (plain HTTP is never served)',
    );
  }
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together');
  }
  if (config.tokenSigningKey !== undefined && config.tokenSigningKey.length < 32) {
    problems.push('TOKEN_SIGNING_KEY: use at least 32 characters');
  }
  if (config.cardCodesKey !== undefined && Buffer.from(config.cardCodesKey, 'base64').length !== 32) {
    problems.push('CARD_CODES_KEY: expected 32 bytes, base64-encoded (openssl rand -base64 32)');
  }
  const dkim = [config.smtpDkimDomain, config.smtpDkimSelector, config.smtpDkimKeyFile];
  if (dkim.some((v) => v !== undefined) && dkim.some((v) => v === undefined)) {
    problems.push('SMTP_DKIM_DOMAIN, SMTP_DKIM_SELECTOR and SMTP_DKIM_KEY_FILE go together');
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  config.dataDir = resolve(config.dataDir);
  return config;
}

import { mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { describeInfrastructureError, isInfrastructureError } from './errors/infrastructure-errors.ts';
import { listenHttpsOnly } from './http/listener.ts';
import { loadTls } from './http/tls.ts';
import { systemClock } from './lib/clock.ts';
import { createLogDestination } from './lib/log-destination.ts';
import { LOG_REDACTION, LOG_SERIALIZERS } from './lib/log-redaction.ts';
import { openRuntime } from './runtime.ts';
import { installShutdown } from './shutdown.ts';

/**
 * The composition root: read the configuration, open the database, build the services and the app,
 * listen on the one HTTPS port. On an empty database it also creates a funded sandbox account and
 * prints how to use it (decisions §8).
 */
async function main() {
  // A stdout or stderr whose reader has gone must not end (or hold) the process: writes to them
  // fail with EPIPE, which without a listener would be thrown. (Touching process.stdout also makes
  // a pipe on fd 1 non-blocking, so the log destination's writes can never block the process.)
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const logs = createLogDestination(1);
  process.once('exit', () => logs.flushSync(200));
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });
  const runtime = await openRuntime(config, systemClock);
  const tls =
    config.tls === 'on'
      ? await loadTls({
          dataDir: config.dataDir,
          hosts: runtime.bases.all.map((b) => b.host),
          certFile: config.tlsCertFile,
          keyFile: config.tlsKeyFile,
        })
      : null;
  const app = await buildApp({
    config,
    bases: runtime.bases,
    services: runtime.services,
    adminKey: runtime.adminKey,
    https: tls && { key: tls.key, cert: tls.cert },
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, stream: logs, redact: LOG_REDACTION, serializers: LOG_SERIALIZERS },
    readiness: runtime.readiness,
    rateLimiter: runtime.rateLimiter,
  });
  let close: (graceMs: number) => Promise<void>;
  let port: number;
  if (tls) {
    const listening = await listenHttpsOnly(app, config.port, config.host);
    close = listening.close;
    port = listening.port;
  } else {
    await app.listen({ port: config.port, host: config.host });
    // Fastify answers new requests 503 while closing and waits for those in flight; the shutdown's
    // deadline bounds the wait.
    close = () => app.close();
    port = config.port;
  }

  const sandbox =
    config.bootstrapSandbox && (await runtime.services.accounts.count()) === 0
      ? await runtime.services.accounts.create({
          name: 'Sandbox',
          currencyCode: 'USD',
          countryCode: 'US',
          environment: 'sandbox',
          fund: '10000',
        })
      : null;
  // The bootstrap account's dashboard user: the sandbox credentials sign in to the dashboard too.
  const dashboardUser = sandbox
    ? await runtime.services.web.users.createWithPassword('customer', SANDBOX_USER_EMAIL, sandbox.accountId)
    : null;
  if (sandbox) {
    await writeFile(
      join(config.dataDir, 'sandbox-credentials.json'),
      `${JSON.stringify({ ...sandbox, dashboard: dashboardUser && { email: dashboardUser.email, password: dashboardUser.password } }, null, 2)}\n`,
      { mode: 0o600 },
    );
  }
  printBanner({
    config,
    port,
    caPath: tls?.caPath ?? null,
    sandbox,
    dashboardUser,
    adminKeyPath: runtime.adminKeyPath,
    bases: runtime.bases.all,
  });

  // A database outage is logged twice (start, end) by the outage monitor, not once per failed run.
  const workerError = (error: unknown, job: { name: string; id: number | null }) => {
    if (isInfrastructureError(error)) runtime.readiness.outage.failed(describeInfrastructureError(error));
    else app.log.error({ err: error, job: job.name, id: job.id }, 'background job failed');
  };
  runtime.readiness.outage.onChange((event) =>
    event.kind === 'started'
      ? app.log.warn({ reason: event.reason }, 'database unavailable: answering 503 until it is back')
      : app.log.warn({ downForMs: event.downForMs }, 'database available again'),
  );
  runtime.rateLimiter.onChange?.((event) =>
    event.kind === 'down'
      ? app.log.warn(
          { reason: event.reason },
          'redis unavailable: rate limits counted in this process until it is back',
        )
      : app.log.warn({ downForMs: event.downForMs }, 'redis available again: rate limits shared again'),
  );
  // Never the secret or a token: a problem names the product, the transaction and the reason.
  runtime.services.upstreams.onProblem((p) =>
    app.log.warn(
      { upstream: p.product, transactionId: p.transactionId, problem: p.kind },
      `upstream ${p.product}: ${p.message}`,
    ),
  );
  runtime.services.webhooks.onEndpointDisabled((endpoint) =>
    app.log.warn(
      { endpointId: endpoint.id, accountId: endpoint.accountId, url: endpoint.url, reason: endpoint.reason },
      'webhook endpoint disabled: tell the account',
    ),
  );
  // never the message's text, link or code: its id, kind, channel and what became of it
  runtime.services.messaging.onOutcome((message, status, error) => {
    if (status === 'failed' || status === 'unsent' || error)
      app.log.warn(
        { messageId: message.id, kind: message.kind, channel: message.channel, status, error },
        'message not sent',
      );
  });
  runtime.services.worker.start(workerError);

  installShutdown({
    graceMs: config.shutdownGraceSeconds * 1000,
    log: app.log,
    drain: (graceMs) => {
      runtime.readiness.setStopping();
      return close(graceMs);
    },
    steps: [
      { name: 'background worker', run: () => runtime.services.worker.stop() },
      { name: 'upstream clients', run: () => runtime.services.upstreams.close() },
      { name: 'mail and SMS connections', run: () => runtime.services.messaging.close() },
      { name: 'rate limiter', run: () => runtime.rateLimiter.close() },
      {
        name: 'database',
        run: async () => {
          runtime.readiness.outage.stop();
          await runtime.db.close();
        },
      },
    ],
  });
}

/** The e-mail of the bootstrap account's dashboard user. */
const SANDBOX_USER_EMAIL = 'sandbox@airgift.localhost';

function printBanner(o: {
  config: ReturnType<typeof loadConfig>;
  port: number;
  caPath: string | null;
  adminKeyPath: string | null;
  sandbox: { clientId: string; clientSecret: string; accountId: number; balance: number } | null;
  dashboardUser: { email: string; password: string } | null;
  bases: { kind: string; environment: string | null; url: string }[];
}) {
  // Relative only below the working directory; elsewhere (DATA_DIR=/srv/ag, ../ag) the absolute path,
  // which can be pasted from any directory.
  const rel = (p: string) => {
    const r = relative(process.cwd(), p);
    return r && !r.startsWith('..') && !isAbsolute(r) ? r : resolve(p);
  };
  const cacert = o.caPath ? ` --cacert ${rel(o.caPath)}` : '';
  const lines = [
    '',
    `airgift is listening on port ${o.port} (${o.config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${rel(o.config.dataDir)}`})`,
    '',
    ...o.bases.map((b) => `  ${`${b.kind}${b.environment ? ` ${b.environment}` : ''}`.padEnd(18)} ${b.url}`),
    '',
  ];
  if (o.caPath)
    lines.push(`TLS: development CA at ${rel(o.caPath)} (curl --cacert, or NODE_EXTRA_CA_CERTS for Node)`);
  if (o.adminKeyPath) lines.push(`Admin key: ${rel(o.adminKeyPath)} (the airgift CLI reads it from there)`);
  if (o.sandbox) {
    const auth = o.bases.find((b) => b.kind === 'auth')?.url;
    const audience = o.bases.find((b) => b.kind === 'giftcards' && b.environment === 'sandbox')?.url;
    lines.push(
      '',
      `A sandbox account was created (id ${o.sandbox.accountId}, balance ${o.sandbox.balance} USD); saved in ${rel(join(o.config.dataDir, 'sandbox-credentials.json'))}:`,
      `  client_id     ${o.sandbox.clientId}`,
      `  client_secret ${o.sandbox.clientSecret}`,
      '',
      'Get a token:',
      `  curl${cacert} -X POST ${auth}/oauth/token -H 'Content-Type: application/json' \\`,
      `    -d '{"client_id":"${o.sandbox.clientId}","client_secret":"${o.sandbox.clientSecret}","grant_type":"client_credentials","audience":"${audience}"}'`,
    );
    if (o.dashboardUser) {
      lines.push(
        '',
        `Dashboard: ${o.config.dashboardUrl} (sign in as the sandbox account's user)`,
        `  e-mail        ${o.dashboardUser.email}`,
        `  password      ${o.dashboardUser.password}`,
      );
    }
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `airgift failed to start: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
  }
  process.exit(1);
});

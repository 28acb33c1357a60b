import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { lockDataDirectory } from './data-directory.ts';
import { isDiskFull, isInfrastructureError } from './errors/infrastructure-errors.ts';
import { bindPort } from './http/listener.ts';
import { loadTls } from './http/tls.ts';
import { systemClock } from './lib/clock.ts';
import { createLogDestination } from './lib/log-destination.ts';
import { logLineMasker, logRedaction } from './lib/log-redaction.ts';
import { openRuntime } from './runtime.ts';
import { bootstrapSandbox, SANDBOX_CREDENTIALS_FILE, type SandboxBootstrap } from './sandbox-bootstrap.ts';
import { installShutdown } from './shutdown.ts';
import { StartError } from './start-error.ts';

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
  // The embedded database is one process's: the data directory is locked before anything in it is
  // opened, and the port bound before the database is touched (a refused second start changes nothing).
  if (!config.databaseUrl) lockDataDirectory(config.dataDir);
  const bound = await bindPort(config.port, config.host).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE'
      ? new StartError(
          `port ${config.port} is already in use on ${config.host}: is airgift already running? (PORT sets another)`,
        )
      : error;
  });
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
        : { level: config.logLevel, stream: logs, ...logRedaction([runtime.adminKey]) },
    accessLog:
      config.logLevel === 'silent'
        ? undefined
        : { write: (line) => logs.write(line), mask: logLineMasker([runtime.adminKey]) },
    readiness: runtime.readiness,
    rateLimiter: runtime.rateLimiter,
  });
  // Fastify answers new requests 503 while closing and waits for those in flight; the shutdown's
  // deadline bounds the wait.
  const { close, port } = await bound.serve(app, { tls: tls !== null });
  runtime.db.onStall((stall) =>
    app.log.warn(
      { waitedMs: stall.waitedMs, heldMs: stall.heldMs, waiting: stall.waiting, heldBy: stall.heldBy },
      'the database has not answered for seconds: its connection is held by the code path in heldBy',
    ),
  );

  const bootstrap = config.bootstrapSandbox ? await bootstrapSandbox(runtime.services, config.dataDir) : null;

  // A database outage is logged twice (start, end) by the outage monitor, not once per failed run.
  const workerError = (error: unknown, job: { name: string; id: number | null }) => {
    if (isInfrastructureError(error)) runtime.readiness.failed(error);
    else app.log.error({ err: error, job: job.name, id: job.id }, 'background job failed');
  };
  runtime.readiness.onDiskFull((reason) =>
    app.log.warn({ reason }, 'disk full: writes refused, answering 503 until there is room again'),
  );
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
  // At most one line a minute: while the database is away every batch fails (counted in /metrics).
  let requestLogWarnedAt = 0;
  runtime.services.requestLog.onWriteError((error, entries) => {
    if (Date.now() - requestLogWarnedAt < 60_000) return;
    requestLogWarnedAt = Date.now();
    app.log.warn({ err: error, entries }, 'API request log: a batch could not be written and was dropped');
  });
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
    drain: async (graceMs) => {
      runtime.readiness.setStopping();
      const cut = await close(graceMs);
      // a drain that had to cut requests is not a clean one: the exit code says so (1)
      if (cut > 0) throw new Error(`${cut} requests still in flight when the grace ended were cut`);
    },
    steps: [
      { name: 'background worker', run: () => runtime.services.worker.stop() },
      { name: 'request log', run: () => runtime.services.requestLog.close() },
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
    flushLogs: () => logs.flush(),
  });
  const disk = (await runtime.readiness.check()).checks.disk;
  if (disk !== 'ok') app.log.warn({ disk }, 'the disk is full: writes are refused (503) until there is room');
  // Last: a process that printed its banner has its signal handlers and workers in place.
  printBanner({
    config,
    port,
    caPath: tls?.caPath ?? null,
    bootstrap,
    adminKeyPath: runtime.adminKeyPath,
    bases: runtime.bases.all,
  });
}

function printBanner(o: {
  config: ReturnType<typeof loadConfig>;
  port: number;
  caPath: string | null;
  adminKeyPath: string | null;
  bootstrap: SandboxBootstrap | null;
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
  if (o.bootstrap) {
    const sandbox = o.bootstrap.account;
    const auth = o.bases.find((b) => b.kind === 'auth')?.url;
    const audience = o.bases.find((b) => b.kind === 'giftcards' && b.environment === 'sandbox')?.url;
    lines.push(
      '',
      o.bootstrap.renewed
        ? `${SANDBOX_CREDENTIALS_FILE} was missing: the sandbox account (id ${sandbox.accountId}) got a new credential and dashboard password; saved in ${rel(join(o.config.dataDir, SANDBOX_CREDENTIALS_FILE))}:`
        : `A sandbox account was created (id ${sandbox.accountId}, balance ${sandbox.balance} USD); saved in ${rel(join(o.config.dataDir, SANDBOX_CREDENTIALS_FILE))}:`,
      `  client_id     ${sandbox.clientId}`,
      `  client_secret ${sandbox.clientSecret}`,
      '',
      'Get a token:',
      `  curl${cacert} -X POST ${auth}/oauth/token -H 'Content-Type: application/json' \\`,
      `    -d '{"client_id":"${sandbox.clientId}","client_secret":"${sandbox.clientSecret}","grant_type":"client_credentials","audience":"${audience}"}'`,
    );
    lines.push(
      '',
      `Dashboard: ${o.config.dashboardUrl} (sign in as the sandbox account's user)`,
      `  e-mail        ${o.bootstrap.dashboardUser.email}`,
      `  password      ${o.bootstrap.dashboardUser.password}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof StartError) {
    process.stderr.write(`${error.message}\n`);
  } else if (isDiskFull(error)) {
    const where = process.env.DATA_DIR ?? './data';
    process.stderr.write(`airgift failed to start: the disk holding ${where} is full (${error.message})\n`);
  } else {
    process.stderr.write(
      `airgift failed to start: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
  }
  process.exit(1);
});

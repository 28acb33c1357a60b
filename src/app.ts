import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { AppError, ERROR_CODES } from './errors/error-codes.ts';
import { AccessLogController, type AccessLogOptions, createAccessLog } from './http/access-log.ts';
import { installAccountShapes } from './http/account-shapes.ts';
import { installApiRequestLog } from './http/api-request-log.ts';
import { installAuthHook } from './http/auth-hook.ts';
import { type BaseRouter, MOUNTS, SHARED_MOUNT } from './http/bases.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { errorDocsPage } from './http/error-docs.ts';
import { installErrorHandling, sendError } from './http/error-handler.ts';
import { createFastLane, installFastLane } from './http/fast-lane.ts';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from './http/media-types.ts';
import { createOpenApiRegistry, docsRoutes } from './http/openapi.ts';
import { loadRecordedExamples } from './http/openapi-examples.ts';
import { PAGE_CSS } from './http/page-layout.ts';
import { probeRoutes } from './http/probes.ts';
import { accountRule, installAccountRateLimit, tokenGuards } from './http/rate-limit.ts';
import { sendPage } from './http/reference-pages.ts';
import { repeatedKey, repeatedKeyError } from './http/repeated-keys.ts';
import { requestIdFor } from './http/request-context.ts';
import { lazyRequestLogger, withPublicRequestUrls } from './http/request-log.ts';
import { createKeptAnswers, installChangeAnnouncer, installResponseCache } from './http/response-cache.ts';
import type { TypedApp } from './http/schemas.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { lazySerializerFactory } from './http/serialization.ts';
import { siteRootPage } from './http/site-root.ts';
import { developmentCaFile, TLS_SERVER_OPTIONS } from './http/tls.ts';
import { installTransportHooks } from './http/transport-hooks.ts';
import { validatorCompiler } from './http/validation.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import { accountAdminRoutes, installAdminAuth } from './modules/admin/index.ts';
import { auditAdminRoutes, installAuditHook } from './modules/audit/index.ts';
import { TOKEN_API_DOCS, tokenRoutes } from './modules/auth/index.ts';
import { backupRoutes } from './modules/backup/index.ts';
import { catalogSyncAdminRoutes } from './modules/catalog-sync/index.ts';
import { fundingAdminRoutes } from './modules/funding/index.ts';
import {
  catalogAdminRoutes,
  GIFTCARD_API_DOCS,
  GIFTCARDS_DEFAULT_SCOPE,
  giftcardRoutes,
  redeemRoutes,
  stockAdminRoutes,
} from './modules/giftcards/index.ts';
import { metricsRoute } from './modules/metrics/index.ts';
import { fxAdminRoutes } from './modules/reference/index.ts';
import {
  operatorAdminRoutes,
  TOPUP_API_DOCS,
  TOPUPS_DEFAULT_SCOPE,
  topupRoutes,
} from './modules/topups/index.ts';
import { upstreamAdminRoutes } from './modules/upstream/index.ts';
import { usersAdminRoutes, webPages } from './modules/web/index.ts';
import { webhookAdminRoutes } from './modules/webhooks/index.ts';
import type { Readiness } from './readiness.ts';
import type { Services } from './services.ts';

/**
 * buildApp(deps) returns the Fastify app with every base mounted; it never listens (main.ts and the
 * test harness do). Request flow: the URL is rewritten by base (host + path prefix) onto the base's
 * mount, then: request id -> HTTPS-only + Accept -> (product bases) token + scope -> handler ->
 * errors to the one envelope.
 */
export interface AppDeps {
  config: Config;
  bases: BaseRouter;
  services: Services;
  adminKey: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * Where the access lines go (http/access-log.ts: one per answered request, while the logger logs
   * `info`) and the masker they pass through; without it no request is logged.
   */
  accessLog?: Pick<AccessLogOptions, 'write' | 'mask'>;
  /** `/ready` and the outage monitor (runtime.readiness); without it `/ready` answers 503. */
  readiness?: Readiness;
  /** Rate limit counters (runtime.rateLimiter); without it nothing is limited. */
  rateLimiter?: RateLimiter;
  /** Options for the HTTPS server Fastify creates (key, cert); absent when the caller brings its own. */
  https?: { key: string | Buffer; cert: string | Buffer } | null;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, bases, services } = deps;
  const docsUrl = `${config.publicUrl}/docs/errors`;
  const accessLog = deps.accessLog
    ? createAccessLog({ ...deps.accessLog, enabled: () => logsInfo(app.log) })
    : null;
  const app = Fastify({
    // TLS 1.2 (ECDHE + AEAD suites only) and 1.3; request heads bounded (HEADER_LIMIT) on either kind of server.
    ...(deps.https
      ? { https: { ...deps.https, ...TLS_SERVER_OPTIONS, maxHeaderSize: config.headerLimit } }
      : { http: { maxHeaderSize: config.headerLimit } }),
    clientErrorHandler: clientErrorHandler(docsUrl),
    logger: withPublicRequestUrls(deps.logger),
    childLoggerFactory: lazyRequestLogger,
    // One access line per request, at its end, instead of Fastify's two (http/access-log.ts).
    logController: new AccessLogController(accessLog),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    requestIdHeader: false,
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    rewriteUrl: (req) => {
      const { base, url } = bases.rewrite(req.headers.host, req.url ?? '/');
      (req as { airgiftBase?: unknown }).airgiftBase = base;
      return url;
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
    // Errors Fastify raises before any hook runs (a malformed percent-encoding in the path, say)
    // answer the same envelope as everything else.
    frameworkErrors: (error, _request, reply) =>
      sendError(
        reply,
        new AppError(
          'INVALID_REQUEST',
          error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid' : error.message,
        ),
        `${config.publicUrl}/docs/errors`,
      ),
  }) as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('base', null);
  app.decorateRequest('principal', null);
  app.decorateRequest('shapes', 'documented');
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    request.base = (request.raw as { airgiftBase?: typeof request.base }).airgiftBase ?? null;
  });
  installErrorHandling(app, docsUrl, (error) => deps.readiness?.failed(error));
  installTransportHooks(app);
  installSecurityHeaders(app);
  services.metrics.install(app);
  const openapi = createOpenApiRegistry(app);

  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (request, body, done) => {
    // A NUL character (\u0000) cannot be stored in PostgreSQL text: a 400 here, not a 500 later.
    if ((body as string).includes('\\u0000')) {
      done(new AppError('INVALID_REQUEST', 'The body contains a NUL character (\\u0000)'), undefined);
      return;
    }
    parseJson(request, body as string, (error, value) => {
      // A key named twice is refused, not read as its last value (http/repeated-keys.ts).
      const repeated =
        error || typeof value !== 'object' || value === null ? null : repeatedKey(body as string);
      if (repeated) done(repeatedKeyError(repeated), undefined);
      else done(error, value);
    });
  });

  // every product-API request of a known caller, to its account's request log (modules/request-log);
  // REQUEST_LOG_DAYS=0: no hook at all
  const now = () => services.clock.now().getTime();
  const requestLog = config.requestLogDays > 0 ? services.requestLog.sink : null;
  await app.register(
    async (auth) => {
      if (requestLog) installApiRequestLog(auth, requestLog, now);
      auth.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_req, body, done) => {
        // RFC 6749 §3.2: a parameter must not be sent twice; refused like a repeated JSON key.
        const fields = new URLSearchParams(body as string);
        const repeated = [...fields.keys()].find((name, i, all) => all.indexOf(name) !== i);
        if (repeated) done(repeatedKeyError(repeated), undefined);
        else done(null, Object.fromEntries(fields));
      });
      tokenRoutes(auth, services.tokens, tokenGuards(deps.rateLimiter, config));
      docsRoutes(auth, openapi, { kind: 'auth', bases: bases.all, options: { docs: TOKEN_API_DOCS } });
    },
    { prefix: MOUNTS.auth },
  );

  // Each product's routes serve its live and sandbox bases; every route needs a token for that base.
  const { accounts, giftcards, topups } = services;
  const keptAnswers = createKeptAnswers({
    changes: services.changes,
    clock: services.clock,
    // The account's shapes too: a gift card answer differs by them (http/account-shapes.ts).
    profileOf: (principal) => {
      const account = accounts.peek(principal.accountId);
      return account && `${account.currencyCode}/${account.countryCode}/${account.shapes}`;
    },
    loadProfile: (principal) => accounts.require(principal.accountId),
    balanceVersionOf: (principal) =>
      services.ledger.keptBalanceVersion(principal.accountId, principal.environment),
  });
  for (const [kind, routes, defaultScope, apiDocs] of [
    [
      'giftcards',
      (product: TypedApp) => giftcardRoutes(product, { accounts, giftcards }),
      GIFTCARDS_DEFAULT_SCOPE,
      GIFTCARD_API_DOCS,
    ],
    [
      'topups',
      (product: TypedApp) => topupRoutes(product, { accounts, topups }),
      TOPUPS_DEFAULT_SCOPE,
      TOPUP_API_DOCS,
    ],
  ] as const) {
    await app.register(
      async (product) => {
        installAuthHook(product, services.tokens, defaultScope);
        if (requestLog) installApiRequestLog(product, requestLog, now);
        // Before the rate limit, so that its 429 takes the account's shapes too.
        if (kind === 'giftcards') {
          installAccountShapes(
            product,
            (principal) =>
              accounts.peek(principal.accountId)?.shapes ??
              accounts.require(principal.accountId).then((account) => account.shapes),
          );
        }
        installAccountRateLimit(product, deps.rateLimiter, config);
        installResponseCache(product, keptAnswers, defaultScope);
        routes(product.withTypeProvider<TypeBoxTypeProvider>());
        docsRoutes(product, openapi, {
          kind,
          bases: bases.all,
          caFile: developmentCaFile(config),
          options: {
            defaultScope,
            docs: apiDocs,
            examples: loadRecordedExamples(kind),
            settings: { orderMaxQuantity: config.orderMaxQuantity },
          },
        });
      },
      { prefix: MOUNTS[kind] },
    );
  }

  await app.register(
    async (admin) => {
      installAdminAuth(admin, deps.adminKey, {
        limiter: deps.rateLimiter,
        rule:
          config.rateLimitAdminFailures > 0
            ? { limit: config.rateLimitAdminFailures, windowMs: config.rateLimitAdminWindowSeconds * 1000 }
            : null,
        now: () => services.clock.now().getTime(),
        onRefused: () => services.metrics.adminLockout(),
      });
      // every change made with the admin key (and so the CLI): one audit line per mutating route
      installAuditHook(admin, {
        channel: 'admin',
        audit: services.audit,
        actorOf: (request) =>
          request.adminKeyId
            ? { kind: 'admin-key', id: request.adminKeyId, label: `admin key ${request.adminKeyId}` }
            : null,
        onError: (error, line) =>
          admin.log.error({ err: error, action: line.action }, 'audit line not written'),
      });
      metricsRoute(admin, services.metrics);
      installChangeAnnouncer(admin, services.changes);
      accountAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.accounts, services.ledger);
      fxAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.fx);
      catalogAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.giftcards.catalog);
      operatorAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.topups.statuses);
      stockAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.giftcards.stock);
      upstreamAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.upstreams);
      webhookAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.webhooks.service);
      catalogSyncAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.catalogSync);
      backupRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.backups);
      usersAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), {
        users: services.web.users,
        accounts: services.accounts,
        dashboardUrl: config.dashboardUrl,
        consoleUrl: config.consoleUrl,
      });
      auditAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.audit);
      fundingAdminRoutes(admin.withTypeProvider<TypeBoxTypeProvider>(), services.funding);
      docsRoutes(admin, openapi, { kind: 'admin', bases: bases.all });
    },
    { prefix: MOUNTS.admin },
  );

  // The account dashboard and the operator console: pages, sessions and their JSON (src/modules/web).
  for (const page of ['dashboard', 'console'] as const) {
    await app.register(
      async (web) => {
        await webPages(web, {
          page,
          web: services.web,
          accounts,
          requestLog: services.requestLog,
          bases: bases.all,
          openapi,
          errorsUrl: docsUrl,
          dashboardUrl: config.dashboardUrl,
          delivery: services.giftcards.delivery,
          funding: services.funding,
          webhooks: services.webhooks.service,
        });
      },
      { prefix: MOUNTS[page] },
    );
  }

  await app.register(
    async (shared) => {
      shared.get('/', async (_request, reply) => sendPage(reply, siteRootPage(bases.all)));
      shared.get('/docs/errors', async (_request, reply) => sendPage(reply, errorDocsPage(ERROR_CODES)));
      shared.get('/docs/errors.css', async (_request, reply) =>
        reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').send(PAGE_CSS),
      );
      probeRoutes(shared, deps.readiness);
    },
    { prefix: SHARED_MOUNT },
  );

  // A gift card's redeem page (/r/{token}) on every host: plain HTML forms, so a form parser of its own.
  await app.register(async (redeem) => redeemRoutes(redeem, services.giftcards.delivery.redeem), {
    prefix: `${SHARED_MOUNT}/r`,
  });

  // Kept answers are sent before Fastify runs at all (http/fast-lane.ts), on the HTTPS server only.
  if (deps.https) {
    installFastLane(
      app.server,
      createFastLane({
        bases,
        tokens: services.tokens,
        answers: keptAnswers,
        limiter: deps.rateLimiter,
        limit: accountRule(config),
        metrics: services.metrics,
        requestLog: requestLog ?? undefined,
        now,
        accessLog,
        trustProxy: config.trustedProxies.length > 0,
      }),
    );
  }

  return app;
}

/** Whether a logger (pino's, or Fastify's silent stand-in) writes `info` lines now. */
function logsInfo(log: FastifyInstance['log']): boolean {
  return (log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') ?? false;
}

import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Listening } from './db/notifications.ts';
import type { Environment } from './db/schema.ts';
import { AppError } from './errors/error-codes.ts';
import type { BaseRouter } from './http/bases.ts';
import { cardCodec, cardCodesKey } from './lib/card-codes.ts';
import { createChangeVersions } from './lib/change-versions.ts';
import type { Clock } from './lib/clock.ts';
import { derivedKey, textSealer } from './lib/sealed-text.ts';
import { accountsRepository, createAccountsService } from './modules/accounts/index.ts';
import { createAudit } from './modules/audit/index.ts';
import { createTokenService, credentialsRepository } from './modules/auth/index.ts';
import { createBackupService } from './modules/backup/index.ts';
import { createCatalogSyncService, liveCatalogueRepository } from './modules/catalog-sync/index.ts';
import { createFunding } from './modules/funding/index.ts';
import { createGiftcardServices } from './modules/giftcards/index.ts';
import { createGroupCommit } from './modules/group-commit/index.ts';
import { BALANCE_CHANNEL, createBalanceCache, createLedger } from './modules/ledger/index.ts';
import { createMessaging } from './modules/messaging/index.ts';
import { createMetrics, metricsRepository } from './modules/metrics/index.ts';
import { createFx, fxRepository, loadCountries } from './modules/reference/index.ts';
import { createApiRequestLog } from './modules/request-log/index.ts';
import { createTopupServices, topupView } from './modules/topups/index.ts';
import { createUpstreamService, upstreamRepository } from './modules/upstream/index.ts';
import { createWebServices, rolesWith } from './modules/web/index.ts';
import { createWebhooks } from './modules/webhooks/index.ts';
import {
  BUSY_ORDERS,
  catalogueSyncJob,
  createLeases,
  createWorker,
  giftcardFulfilmentJob,
  leaseOwner,
  messageDeliveryJob,
  requestLogRetentionJob,
  topupCompletionJob,
  webhookDeliveryJob,
} from './worker/index.ts';

/**
 * Builds every service from its explicit dependencies. Called by main.ts (the composition root) and
 * by the test harness, so tests run exactly the objects production runs.
 */
export interface ServiceInputs {
  config: Config;
  db: Db;
  clock: Clock;
  bases: BaseRouter;
  tokenSigningKey: Uint8Array;
}

export function createServices({ config, db, clock, bases, tokenSigningKey }: ServiceInputs) {
  // What servers keep in memory and how its changes reach every server (src/lib/change-versions.ts).
  const changes = createChangeVersions(db.kysely, { soleUser: db.kind === 'pglite' });
  const credentials = credentialsRepository(db.kysely, clock);
  // Balances kept in memory, in step with every server through the database's notifications
  // (modules/ledger/balance-cache.ts); until the listener is up, every balance is read.
  let balanceListener: Listening | null = null;
  const balanceCache = createBalanceCache({ healthy: () => balanceListener?.healthy() ?? false });
  void db.listen(BALANCE_CHANNEL, { onMessage: balanceCache.announced, onReset: balanceCache.reset }).then(
    (listening) => {
      balanceListener = listening;
    },
    () => undefined,
  );
  // The orders of one account share a transaction (modules/group-commit/), up to ORDER_BATCH_MAX
  // (1: every order alone). PostgreSQL: the next batch of an account's orders waits on its row lock
  // inside the database while the previous one commits; PGlite has one connection.
  const groupCommit = createGroupCommit(db.kysely, {
    maxBatch: config.orderBatchMax,
    inFlight: db.kind === 'postgres' ? 2 : 1,
    // the COMMIT pipelined behind a batch's last statement, and its BEGIN not waited for (PGlite
    // answers in-process: nothing to save)
    commitBehind: db.kind === 'postgres',
    pipelinedBegin: db.pipelinedBegin,
  });
  const ledger = createLedger(db.kysely, clock, { groupCommit, cache: balanceCache });
  const countries = loadCountries();
  const fx = createFx(fxRepository(db.kysely), clock, config.fxMarginPercent);
  const accounts = createAccountsService({
    db: db.kysely,
    accounts: accountsRepository(db.kysely),
    credentials,
    ledger,
    clock,
    reference: { hasCountry: (iso) => countries.find(iso) !== undefined, hasFxRate: (code) => fx.has(code) },
    changes,
  });
  const tokens = createTokenService({
    credentials,
    bases,
    clock,
    signingKey: tokenSigningKey,
    issuer: config.authUrl,
    lifetimeSeconds: { live: config.tokenTtlLive, sandbox: config.tokenTtlSandbox },
    changes,
  });
  // The upstreams' client secrets are sealed with a key of their own, derived from the card codes key.
  const upstreams = createUpstreamService({
    repository: upstreamRepository(db.kysely),
    sealer: textSealer(
      derivedKey(() => cardCodesKey(config.cardCodesKey, config.dataDir), 'airgift upstream client secret'),
    ),
    clock,
    timeoutMs: config.upstreamTimeoutSeconds * 1000,
    recheckMs: config.upstreamRecheckMs,
  });
  // e-mails and text messages: one outbox, sent by the worker (modules/messaging)
  const messaging = createMessaging({
    db: db.kysely,
    clock,
    settings: {
      smtpUrl: config.smtpUrl,
      smtpFrom: config.smtpFrom,
      smtpPoolSize: config.smtpPoolSize,
      dkim:
        config.smtpDkimDomain && config.smtpDkimSelector && config.smtpDkimKeyFile
          ? {
              domain: config.smtpDkimDomain,
              selector: config.smtpDkimSelector,
              keyFile: config.smtpDkimKeyFile,
            }
          : undefined,
      smsUrl: config.smsUrl,
      smsFrom: config.smsFrom,
      ca: config.messagingCaFile ? readFileSync(config.messagingCaFile, 'utf8') : undefined,
    },
  });
  // Both products are built from the same deps; the redeem codes' codec seals cards and PIN vouchers.
  const codec = cardCodec(() => cardCodesKey(config.cardCodesKey, config.dataDir));
  const products = {
    config,
    db: db.kysely,
    clock,
    ledger,
    accounts,
    fx,
    countries,
    upstreams,
    codec,
    messaging,
  };
  const giftcards = createGiftcardServices(products);
  const topups = createTopupServices(products);
  changes.onChange('catalog', () => {
    fx.invalidate();
    giftcards.catalog.invalidate();
    topups.source.invalidate();
  });
  // every change of every channel, one hash-chained line each (modules/audit)
  const audit = createAudit(db.kysely, clock);
  const web = createWebServices({
    upstreams,
    audit,
    messaging,
    // the links of e-mailed invitations and password resets, sealed in their messages
    messageSealer: textSealer(
      derivedKey(() => cardCodesKey(config.cardCodesKey, config.dataDir), 'airgift message secrets'),
    ),
    dashboardUrl: config.dashboardUrl,
    db: db.kysely,
    clock,
    config,
    accounts,
    ledger,
    giftcards,
    topups,
    fx,
    changes,
    // the users' TOTP secrets are sealed with a key of their own, derived from the card codes key
    totpSealer: textSealer(
      derivedKey(() => cardCodesKey(config.cardCodesKey, config.dataDir), 'airgift web user TOTP secret'),
    ),
  });
  // funding by bank transfer: bank details, announced transfers, receipts, statements (issue 28)
  const funding = createFunding({
    db: db.kysely,
    clock,
    ledger,
    accounts,
    messaging,
    dashboardUrl: config.dashboardUrl,
    consoleUrl: config.consoleUrl,
    // a transfer's e-mails go to the people who may move money: finance and owners, the operator's admins
    recipientRoles: { customer: rolesWith('customer', 'money'), operator: rolesWith('operator', 'money') },
  });
  const catalogSync = createCatalogSyncService({
    db: db.kysely,
    repository: liveCatalogueRepository(db.kysely),
    upstreams,
    fx,
    changes,
    clock,
    topupSeed: topups.operators,
  });
  // webhooks: the payload of an order event is the transaction its reports endpoint answers
  const asAccount = (accountId: number, environment: Environment) => ({
    accountId,
    environment,
    clientId: 'webhooks',
    scopes: [],
  });
  const topupsBase = (environment: Environment) =>
    bases.all.find((b) => b.kind === 'topups' && b.environment === environment)?.url ?? '';
  const webhooks = createWebhooks({
    db: db.kysely,
    clock,
    loadKey: () => cardCodesKey(config.cardCodesKey, config.dataDir),
    allowPrivate: config.webhooksAllowPrivate,
    ca: config.webhooksCaFile ? readFileSync(config.webhooksCaFile, 'utf8') : undefined,
    accountExists: (accountId) =>
      accounts.require(accountId).then(
        () => true,
        (error) => {
          if (error instanceof AppError && error.code === 'ACCOUNT_NOT_FOUND') return false;
          throw error;
        },
      ),
    render: {
      giftcardOrder: (accountId, environment, id) =>
        giftcards.reports.get(asAccount(accountId, environment), id),
      giftcardDelivery: (accountId, environment, id) =>
        giftcards.delivery.deliveryOf(accountId, environment, id),
      topup: async (accountId, environment, id) =>
        topupView(await topups.reports.get(asAccount(accountId, environment), id), topupsBase(environment)),
    },
  });
  // every product-API request of each account, written in batches off the request path
  const requestLog = createApiRequestLog(db.kysely, clock, config.requestLogDays);
  // the one background poller: gift card fulfilment steps and top-up completion, on leased rows
  const leases = createLeases(db.kysely, { owner: leaseOwner(), leaseMs: config.workerLeaseSeconds * 1000 });
  const orderPathBusy = () => ledger.ordersInFlight() >= BUSY_ORDERS;
  const worker = createWorker({
    clock,
    jobs: [
      giftcardFulfilmentJob(giftcards.orders, leases, config.fulfilmentPollMs),
      topupCompletionJob(topups.orders, leases, config.topupWorkerIntervalMs),
      // webhook deliveries and messages drain a backlog batch after batch while the order path is quiet
      webhookDeliveryJob(webhooks, leases, config.webhookPollMs, orderPathBusy),
      // the outbox also yields to a burst of orders (at most YIELD_MAX_MS per message)
      messageDeliveryJob(messaging, leases, config.messagePollMs, orderPathBusy),
      ...(Number(config.upstreamSyncMinutes) > 0
        ? [catalogueSyncJob(catalogSync, Number(config.upstreamSyncMinutes))]
        : []),
      ...(config.requestLogDays > 0 ? [requestLogRetentionJob(requestLog)] : []),
    ],
  });
  // request counts and latencies, orders, the job queue: GET /metrics on the admin base
  const metrics = createMetrics({
    repo: metricsRepository(db.kysely),
    clock,
    requestLog: () => requestLog.stats(),
    orderBatches: () => ({ ...ledger.batchStats(), inFlight: ledger.ordersInFlight() }),
  });
  // the admin API's consistent backup (GET /backup): the database's rows and DATA_DIR's keys
  const backups = createBackupService({ db, config, clock });
  return {
    ledger,
    accounts,
    tokens,
    countries,
    fx,
    giftcards,
    topups,
    upstreams,
    webhooks,
    messaging,
    catalogSync,
    web,
    audit,
    funding,
    requestLog,
    worker,
    changes,
    clock,
    metrics,
    backups,
  };
}

export type Services = ReturnType<typeof createServices>;

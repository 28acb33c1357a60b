import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { BaseRouter } from './http/bases.ts';
import { createChangeVersions } from './lib/change-versions.ts';
import type { Clock } from './lib/clock.ts';
import { derivedKey, textSealer } from './lib/sealed-text.ts';
import { accountsRepository, createAccountsService } from './modules/accounts/index.ts';
import { createTokenService, credentialsRepository } from './modules/auth/index.ts';
import { createCatalogSyncService, liveCatalogueRepository } from './modules/catalog-sync/index.ts';
import { cardCodesKey, createGiftcardServices } from './modules/giftcards/index.ts';
import { createLedger } from './modules/ledger/index.ts';
import { createFx, fxRepository, loadCountries } from './modules/reference/index.ts';
import { createTopups } from './modules/topups/index.ts';
import { createUpstreamService, upstreamRepository } from './modules/upstream/index.ts';
import { catalogueSyncJob } from './worker/catalogue-sync-job.ts';
import { createWorker, giftcardFulfilmentJob, topupCompletionJob } from './worker/index.ts';

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
  const changes = createChangeVersions(db.kysely);
  const credentials = credentialsRepository(db.kysely, clock);
  const ledger = createLedger(db.kysely, clock);
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
  });
  const topups = createTopups({ db: db.kysely, clock, config, accounts, ledger, fx, countries, upstreams });
  const giftcards = createGiftcardServices({ config, db, clock, ledger, accounts, fx, countries, upstreams });
  changes.onChange('catalog', () => {
    fx.invalidate();
    giftcards.catalog.invalidate();
    topups.source.invalidate();
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
  // the one background poller: gift card fulfilment steps and top-up completion
  const worker = createWorker({
    clock,
    jobs: [
      giftcardFulfilmentJob(giftcards.orders, config.fulfilmentPollMs),
      topupCompletionJob(topups.orders, config.topupWorkerIntervalMs),
      ...(Number(config.upstreamSyncMinutes) > 0
        ? [catalogueSyncJob(catalogSync, Number(config.upstreamSyncMinutes))]
        : []),
    ],
  });
  return {
    ledger,
    accounts,
    tokens,
    countries,
    fx,
    giftcards,
    topups,
    upstreams,
    catalogSync,
    worker,
    changes,
    clock,
  };
}

export type Services = ReturnType<typeof createServices>;

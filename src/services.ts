import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { BaseRouter } from './http/bases.ts';
import { createChangeVersions } from './lib/change-versions.ts';
import type { Clock } from './lib/clock.ts';
import { accountsRepository, createAccountsService } from './modules/accounts/index.ts';
import { createTokenService, credentialsRepository } from './modules/auth/index.ts';
import { createGiftcardServices } from './modules/giftcards/index.ts';
import { createLedger } from './modules/ledger/index.ts';
import { createMetrics } from './modules/metrics/metrics.ts';
import { metricsRepository } from './modules/metrics/metrics-repository.ts';
import { createFx, fxRepository, loadCountries } from './modules/reference/index.ts';
import { createTopups } from './modules/topups/index.ts';
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
  const topups = createTopups({ db: db.kysely, clock, config, accounts, ledger, fx, countries });
  const giftcards = createGiftcardServices({ config, db, clock, ledger, accounts, fx, countries });
  changes.onChange('catalog', () => {
    fx.invalidate();
    giftcards.catalog.invalidate();
  });
  // the one background poller: gift card fulfilment steps and top-up completion
  const worker = createWorker({
    clock,
    jobs: [
      giftcardFulfilmentJob(giftcards.orders, config.fulfilmentPollMs),
      topupCompletionJob(topups.orders, config.topupWorkerIntervalMs),
    ],
  });
  // request counts and latencies, orders, the job queue: GET /metrics on the admin base
  const metrics = createMetrics({ repo: metricsRepository(db.kysely), clock });
  return { ledger, accounts, tokens, countries, fx, giftcards, topups, worker, changes, clock, metrics };
}

export type Services = ReturnType<typeof createServices>;

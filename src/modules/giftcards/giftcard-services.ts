import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { cardCodec, cardCodesKey } from '../../lib/card-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Countries, Fx } from '../reference/index.ts';
import type { UpstreamService } from '../upstream/index.ts';
import { catalogRepository } from './catalog/catalog-repository.ts';
import { createCatalogService } from './catalog/catalog-service.ts';
import { createLiveProvider } from './fulfilment/live-provider.ts';
import { createSandboxSimulator } from './fulfilment/sandbox-simulator.ts';
import { createStockProvider } from './fulfilment/stock-provider.ts';
import { unconfiguredProvider } from './fulfilment/unconfigured-provider.ts';
import { createUpstreamProvider } from './fulfilment/upstream-provider.ts';
import { createOrderService } from './orders/order-service.ts';
import { ordersRepository } from './orders/orders-repository.ts';
import { createTransactionReports } from './orders/transaction-reports.ts';
import { stockRepository } from './stock/stock-repository.ts';
import { createStockService } from './stock/stock-service.ts';

/**
 * The gift card service's objects from their explicit dependencies: the catalog, orders (with the
 * sandbox simulator as the sandbox's provider; live's routes each product to the code stock or to the
 * upstream, which refuses while none is configured), the reports, the stock. The worker
 * (`src/worker/`) takes the next steps of orders that are not final.
 */
export interface GiftcardDeps {
  config: Config;
  db: Db;
  clock: Clock;
  ledger: Ledger;
  accounts: AccountsService;
  fx: Fx;
  countries: Countries;
  upstreams: UpstreamService;
}

/** A generous bound on one fulfilment step: past it, the worker takes over an order left behind. */
const RESCUE_AFTER_MS = 60_000;

export function createGiftcardServices({
  config,
  db,
  clock,
  ledger,
  accounts,
  fx,
  countries,
  upstreams,
}: GiftcardDeps) {
  const catalog = createCatalogService({ repository: catalogRepository(db.kysely), fx, countries, clock });
  const codec = cardCodec(() => cardCodesKey(config.cardCodesKey, config.dataDir));
  const repository = ordersRepository(db.kysely);
  const stockRepo = stockRepository(db.kysely);
  const live = createLiveProvider({
    route: (productId, trx) => stockRepo.route(productId, trx),
    stock: createStockProvider({ repository: stockRepo, codec, clock }),
    // the upstream, when one is configured for gift cards; else refused (422) as before
    upstream: createUpstreamProvider({ upstreams, unconfigured: unconfiguredProvider('live upstream') }),
    fallback: createUpstreamProvider({ upstreams, unconfigured: unconfiguredProvider('live') }),
  });
  const orders = createOrderService({
    db: db.kysely,
    clock,
    ledger,
    accounts,
    fx,
    catalog,
    repository,
    codec,
    providers: {
      live,
      sandbox: createSandboxSimulator({
        processingMs: config.sandboxProcessingSeconds * 1000,
        preOrderMs: config.sandboxPreOrderSeconds * 1000,
      }),
    },
    settings: {
      maxQuantity: config.orderMaxQuantity,
      smsFeeUsd: config.giftcardSmsFee,
      rescueAfterMs: RESCUE_AFTER_MS,
      callOutClaimMs: upstreams.stepBoundMs,
    },
  });
  const reports = createTransactionReports({ repository, codec });
  const stock = createStockService({
    db: db.kysely,
    repository: stockRepo,
    codec,
    clock,
    product: (productId) => catalog.entry(productId),
  });
  return { catalog, orders, reports, stock };
}

export type GiftcardServices = ReturnType<typeof createGiftcardServices>;

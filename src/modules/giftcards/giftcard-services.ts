import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { cardCodesKey } from '../../lib/card-codes.ts';
import { createGathering } from '../group-commit/index.ts';
import type { ProductDeps } from '../orders/index.ts';
import { catalogRepository } from './catalog/catalog-repository.ts';
import { createCatalogService } from './catalog/catalog-service.ts';
import { createGiftcardDelivery } from './delivery/delivery-services.ts';
import { createLiveProvider } from './fulfilment/live-provider.ts';
import { createSandboxSimulator } from './fulfilment/sandbox-simulator.ts';
import { createStockProvider } from './fulfilment/stock-provider.ts';
import { unconfiguredProvider } from './fulfilment/unconfigured-provider.ts';
import { createUpstreamProvider } from './fulfilment/upstream-provider.ts';
import { createGiftcardOrders } from './orders/order-adapter.ts';
import { createTransactionReports } from './orders/order-reports.ts';
import { ordersRepository } from './orders/orders-repository.ts';
import { stockRepository } from './stock/stock-repository.ts';
import { createStockService } from './stock/stock-service.ts';

/**
 * The gift card service's objects from the deps both products are built from (`ProductDeps`): the
 * catalog, the providers (the sandbox simulator; live's routes each product to the code stock or to
 * the upstream, which refuses while none is configured), orders (the one order path with the gift
 * card adapter), the reports, the stock, and the recipients' delivery (delivery/: their messages
 * through the outbox, the redeem page, the deliveries API). The worker (`src/worker/`) takes the
 * next steps of orders that are not final.
 *
 * @example
 * const giftcards = createGiftcardServices({ config, db, clock, ledger, accounts, fx, countries, upstreams, codec, messaging });
 * await giftcards.orders.place(principal, { productId: 1840, quantity: 1, unitPrice: 25, senderName: 'Ada' });
 */
export function createGiftcardServices(deps: ProductDeps) {
  const { config, db, clock, ledger, accounts, fx, countries, upstreams, codec, messaging } = deps;
  const catalog = createCatalogService({ repository: catalogRepository(db), fx, countries, clock });
  const repository = ordersRepository(db);
  const stockRepo = stockRepository(db);
  // a batch's live orders ask their products' routes again in one statement
  const routes = createGathering({
    gathers: ledger.inBatch,
    one: (trx: Kysely<Database>, productId: number) => stockRepo.route(productId, trx),
    many: async (trx, productIds) => {
      const found = await stockRepo.routesOf(trx, productIds);
      return productIds.map((id) => found.get(id) ?? null);
    },
  });
  const live = createLiveProvider({
    route: (productId, trx) => (trx ? routes.run(trx, productId) : stockRepo.route(productId)),
    routeAndAvailable: (r) => stockRepo.routeAndAvailable(r.productId, r.unitPrice, clock.now(), r.quantity),
    stock: createStockProvider({ repository: stockRepo, codec, clock, gathers: ledger.inBatch }),
    // the upstream, when one is configured for gift cards; else refused (422) as before
    upstream: createUpstreamProvider({ upstreams, unconfigured: unconfiguredProvider('live upstream') }),
    fallback: createUpstreamProvider({ upstreams, unconfigured: unconfiguredProvider('live') }),
  });
  const orders = createGiftcardOrders({
    db,
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
      callOutClaimMs: upstreams.stepBoundMs,
    },
  });
  const reports = createTransactionReports({ repository, codec });
  const stock = createStockService({
    db,
    repository: stockRepo,
    codec,
    clock,
    product: (productId) => catalog.entry(productId),
  });
  // the recipient's e-mail or SMS, the redeem page and the deliveries API (delivery/)
  const delivery = createGiftcardDelivery({
    db,
    clock,
    ledger,
    messaging,
    reports,
    loadKey: () => cardCodesKey(config.cardCodesKey, config.dataDir),
    publicUrl: config.publicUrl,
    linkDays: config.redeemLinkDays,
    accounts,
  });
  return { catalog, orders, reports, stock, delivery };
}

export type GiftcardServices = ReturnType<typeof createGiftcardServices>;

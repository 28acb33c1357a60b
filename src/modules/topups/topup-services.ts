import type { ProductDeps } from '../orders/index.ts';
import { createTopupCatalogService } from './catalog/catalog-service.ts';
import { createOperatorSource } from './catalog/live-operators.ts';
import { liveOperatorsRepository } from './catalog/live-operators-repository.ts';
import { loadOperatorCatalog } from './catalog/operator-catalog.ts';
import { createOperatorStatuses } from './catalog/operator-statuses.ts';
import { operatorStatusesRepository } from './catalog/operator-statuses-repository.ts';
import { createOperatorViews } from './catalog/operator-view.ts';
import { createSandboxSimulator } from './fulfilment/sandbox-simulator.ts';
import { unconfiguredProvider } from './fulfilment/unconfigured-provider.ts';
import { createUpstreamProvider } from './fulfilment/upstream-provider.ts';
import { createTopupOrders } from './orders/order-adapter.ts';
import { createTopupReports } from './orders/order-reports.ts';
import { topupsRepository } from './orders/orders-repository.ts';

/**
 * The top-up service's objects from the deps both products are built from (`ProductDeps`): the
 * operator catalogues (the seeded one in memory, from data/operators; live's synced one when there
 * is one) and their service, the providers (the sandbox simulator; live's buys from the upstream
 * configured for top-ups, and refuses every top-up while there is none), orders (the one order path
 * with the top-up adapter) and reports.
 *
 * @example
 * const topups = createTopupServices({ config, db, clock, ledger, accounts, fx, countries, upstreams, codec });
 * await topups.orders.place(principal, { operatorId: 1001, amount: 10, recipientPhone }, baseUrl);
 */
export function createTopupServices(deps: ProductDeps) {
  const { config, db, clock, ledger, accounts, fx, countries, upstreams, codec } = deps;
  const operators = loadOperatorCatalog();
  const source = createOperatorSource({
    seed: operators,
    repository: liveOperatorsRepository(db),
    statuses: operatorStatusesRepository(db),
    clock,
  });
  const statuses = createOperatorStatuses({ repository: operatorStatusesRepository(db), source, clock });
  const views = createOperatorViews({ fx, countries, catalog: operators, clock });
  const catalog = createTopupCatalogService({ source, views, countries, accounts, fx });
  // PIN vouchers are sealed with the redeem codes' codec
  const repository = topupsRepository(db, codec);
  const orders = createTopupOrders({
    db,
    clock,
    ledger,
    accounts,
    fx,
    countries,
    source,
    views,
    repository,
    providers: {
      sandbox: createSandboxSimulator({ processingMs: config.topupSandboxProcessingSeconds * 1000 }),
      live: createUpstreamProvider({
        upstreams,
        operator: (id) => source.peek('live').find(id),
        unconfigured: unconfiguredProvider('live'),
      }),
    },
    settings: {
      recentRechargeSeconds: config.topupRecentRechargeSeconds,
      callOutClaimMs: upstreams.stepBoundMs,
    },
  });
  const reports = createTopupReports({ repository });
  return { operators, source, statuses, catalog, orders, reports };
}

export type TopupServices = ReturnType<typeof createTopupServices>;

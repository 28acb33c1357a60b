import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { cardCodec, cardCodesKey } from '../../lib/card-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AccountsService, balanceRoute } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Countries, Fx } from '../reference/index.ts';
import type { UpstreamService } from '../upstream/index.ts';
import { createTopupCatalogService } from './catalog/catalog-service.ts';
import { commissionPromotionRoutes } from './catalog/commission-promotion-routes.ts';
import { createOperatorSource } from './catalog/live-operators.ts';
import { liveOperatorsRepository } from './catalog/live-operators-repository.ts';
import { loadOperatorCatalog } from './catalog/operator-catalog.ts';
import { operatorRoutes } from './catalog/operator-routes.ts';
import { createOperatorStatuses } from './catalog/operator-statuses.ts';
import { operatorStatusesRepository } from './catalog/operator-statuses-repository.ts';
import { createOperatorViews } from './catalog/operator-view.ts';
import { createSandboxSimulator } from './fulfilment/sandbox-simulator.ts';
import { unconfiguredProvider } from './fulfilment/unconfigured-provider.ts';
import { createUpstreamProvider } from './fulfilment/upstream-provider.ts';
import { createTopupReports } from './orders/topup-reports.ts';
import { topupRoutes as orderRoutes } from './orders/topup-routes.ts';
import { createTopupService } from './orders/topup-service.ts';
import { createTopupStates } from './orders/topup-states.ts';
import { topupsRepository } from './orders/topups-repository.ts';

/**
 * The top-up service's routes, mounted on both top-up bases (live and sandbox). Each route names
 * its scope (decisions §2); there is no default, so a route that forgets is refused to everyone.
 */
export const TOPUPS_DEFAULT_SCOPE = 'topups:undeclared';
export { TOPUP_API_DOCS } from './topup-api-docs.ts';

/** What the top-up module is built from; passed explicitly, never imported as singletons. */
export interface TopupDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<
    Config,
    'topupRecentRechargeSeconds' | 'topupSandboxProcessingSeconds' | 'cardCodesKey' | 'dataDir'
  >;
  accounts: AccountsService;
  ledger: Ledger;
  fx: Fx;
  countries: Countries;
  /** Live's upstream (`airgift upstream set topups ...`); without one configured, live is refused. */
  upstreams: UpstreamService;
}

/**
 * Builds the top-up module: the operator catalogues (the seeded one in memory, from data/operators;
 * live's synced one when there is one) and their service,
 * the providers (the sandbox simulator; live's buys from the upstream configured for top-ups, and
 * refuses every top-up while there is none), orders and reports.
 *
 * @example
 * const topups = createTopups({ db, clock, config, accounts, ledger, fx, countries, upstreams });
 * await topups.orders.send(principal, { operatorId: 1001, amount: 10, recipientPhone });
 */
export function createTopups(deps: TopupDeps) {
  const { db, clock, config, accounts, ledger, fx, countries, upstreams } = deps;
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
  // PIN vouchers are sealed with the redeem codes' key (CARD_CODES_KEY or DATA_DIR/card-codes.key).
  const repo = topupsRepository(
    db,
    cardCodec(() => cardCodesKey(config.cardCodesKey, config.dataDir)),
  );
  const states = createTopupStates({ repo, ledger, clock });
  const orders = createTopupService({
    db,
    clock,
    config,
    accounts,
    ledger,
    fx,
    countries,
    source,
    views,
    repo,
    states,
    providers: {
      sandbox: createSandboxSimulator({ processingMs: config.topupSandboxProcessingSeconds * 1000 }),
      live: createUpstreamProvider({
        upstreams,
        operator: (id) => source.peek('live').find(id),
        unconfigured: unconfiguredProvider('live'),
      }),
    },
    callOutClaimMs: upstreams.stepBoundMs,
  });
  const reports = createTopupReports({ repo });
  return { operators, source, statuses, catalog, orders, reports };
}

export type Topups = ReturnType<typeof createTopups>;

export function topupRoutes(app: TypedApp, deps: { accounts: AccountsService; topups: Topups }) {
  const { accounts, topups } = deps;
  balanceRoute(app, accounts, 'read-prepaid-balance');
  operatorRoutes(app, topups.catalog);
  commissionPromotionRoutes(app, topups.catalog);
  orderRoutes(app, topups);
}

export { operatorAdminRoutes, TopupOperatorStatus } from './catalog/operator-admin-routes.ts';
export type {
  OperatorCatalog,
  OperatorRecord,
  PromotionRecord,
} from './catalog/operator-catalog.ts';
export type { OperatorStatuses } from './catalog/operator-statuses.ts';
export type { TopupService } from './orders/topup-service.ts';
export { topupView } from './orders/topup-view.ts';
export type { TopupRow } from './orders/topups-repository.ts';

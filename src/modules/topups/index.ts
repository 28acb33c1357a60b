import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { balanceRoute } from '../accounts/index.ts';
import { commissionPromotionRoutes } from './commission-promotion-routes.ts';
import { loadOperatorCatalog } from './operator-catalog.ts';
import { operatorRoutes } from './operator-routes.ts';
import { createOperatorViews } from './operator-view.ts';
import type { TopupDeps } from './topup-deps.ts';
import { transactionRoutes } from './topup-routes.ts';
import { createTopupService } from './topup-service.ts';
import { createTopupStates } from './topup-states.ts';
import { createTopupWorker } from './topup-worker.ts';
import { topupsRepository } from './topups-repository.ts';

export { SANDBOX_TEST_SUFFIXES } from './sandbox-simulator.ts';
export { TOPUP_TRANSITIONS } from './topup-states.ts';

/**
 * The top-up service's routes, mounted on both top-up bases (live and sandbox). Each route names
 * its scope (decisions §2); there is no default, so a route that forgets is refused to everyone.
 */
export const TOPUPS_DEFAULT_SCOPE = 'topups:undeclared';

/**
 * Builds the top-up module from its dependencies: the operator catalogue (in memory, from
 * data/operators), the views, the repository, the state machine, the service and the worker.
 *
 * @example
 * const topups = createTopups({ db, clock, config, accounts, ledger, fx, countries });
 * topups.worker.start(config.topupWorkerIntervalMs, log); // main.ts
 */
export function createTopups(input: Omit<TopupDeps, 'catalog' | 'views'>) {
  const catalog = loadOperatorCatalog();
  const views = createOperatorViews({
    fx: input.fx,
    countries: input.countries,
    catalog,
    clock: input.clock,
  });
  const deps: TopupDeps = { ...input, catalog, views };
  const repo = topupsRepository(input.db);
  const states = createTopupStates({ repo, ledger: input.ledger, clock: input.clock });
  const service = createTopupService({ ...deps, repo, states });
  const worker = createTopupWorker({
    db: input.db,
    clock: input.clock,
    repo,
    states,
    sandboxResult: service.sandboxResult,
  });
  return { deps, catalog, repo, service, worker };
}

export type Topups = ReturnType<typeof createTopups>;

export function topupRoutes(app: FastifyInstance, services: Services) {
  balanceRoute(app, services.accounts, 'read-prepaid-balance');
  const { deps, service, repo, catalog } = services.topups;
  operatorRoutes(app, deps);
  commissionPromotionRoutes(app, deps, catalog.termsAsOf);
  transactionRoutes(app, service, repo);
}

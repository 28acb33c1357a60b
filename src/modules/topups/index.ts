import type { TypedApp } from '../../http/schemas.ts';
import { type AccountsService, balanceRoute } from '../accounts/index.ts';
import { commissionPromotionRoutes } from './catalog/commission-promotion-routes.ts';
import { operatorRoutes } from './catalog/operator-routes.ts';
import { topupRoutes as orderRoutes } from './orders/order-routes.ts';
import type { TopupServices } from './topup-services.ts';

/**
 * The top-up service's routes, mounted on both top-up bases (live and sandbox). Each route names
 * its scope (decisions §2); there is no default, so a route that forgets is refused to everyone.
 */
export const TOPUPS_DEFAULT_SCOPE = 'topups:undeclared';
export { TOPUP_API_DOCS } from './topup-api-docs.ts';

export function topupRoutes(app: TypedApp, deps: { accounts: AccountsService; topups: TopupServices }) {
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
export { SANDBOX_TEST_NUMBERS } from './fulfilment/sandbox-simulator.ts';
export type { TopupOrders } from './orders/order-adapter.ts';
export { topupView } from './orders/order-view.ts';
export type { TopupRow } from './orders/orders-repository.ts';
export { createTopupServices, type TopupServices } from './topup-services.ts';

import type { TypedApp } from '../../http/schemas.ts';
import { type AccountsService, balanceRoute } from '../accounts/index.ts';
import { catalogRoutes } from './catalog/catalog-routes.ts';
import { deliveryRoutes } from './delivery/delivery-routes.ts';
import type { GiftcardServices } from './giftcard-services.ts';
import { orderRoutes } from './orders/order-routes.ts';

/**
 * The gift card service's routes, mounted on both gift card bases (live and sandbox). Every route
 * needs the `developer` scope (decisions §2) unless it declares otherwise.
 */
export const GIFTCARDS_DEFAULT_SCOPE = 'developer';

export function giftcardRoutes(
  app: TypedApp,
  deps: { accounts: AccountsService; giftcards: GiftcardServices },
) {
  const { accounts, giftcards } = deps;
  balanceRoute(app, accounts, GIFTCARDS_DEFAULT_SCOPE);
  catalogRoutes(app, { catalog: giftcards.catalog, accounts });
  orderRoutes(app, giftcards);
  deliveryRoutes(app, giftcards.delivery);
}

export { catalogAdminRoutes } from './catalog/catalog-admin-routes.ts';
export type { CatalogFile, CatalogProduct } from './catalog/catalog-file.ts';
export type { GiftcardDelivery } from './delivery/delivery-services.ts';
export { redeemRoutes } from './delivery/redeem-routes.ts';
export { SANDBOX_TEST_PRODUCT_IDS } from './fulfilment/sandbox-test-values.ts';
export { GIFTCARD_API_DOCS } from './giftcard-api-docs.ts';
export { createGiftcardServices, type GiftcardServices } from './giftcard-services.ts';
export type { GiftcardOrders } from './orders/order-adapter.ts';
export { stockAdminRoutes } from './stock/stock-admin-routes.ts';

import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { balanceRoute } from '../accounts/index.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { orderRoutes } from './order-routes.ts';

/**
 * The gift card service's routes, mounted on both gift card bases (live and sandbox). Every route
 * needs the `developer` scope (decisions §2) unless it declares otherwise.
 */
export const GIFTCARDS_DEFAULT_SCOPE = 'developer';

export function giftcardRoutes(app: FastifyInstance, services: Services) {
  balanceRoute(app, services.accounts, GIFTCARDS_DEFAULT_SCOPE);
  catalogRoutes(app, services, services.giftcards);
  orderRoutes(app, services.giftcards);
}

export { catalogAdminRoutes } from './catalog-admin-routes.ts';
export { createGiftcardServices, type GiftcardServices } from './giftcard-services.ts';

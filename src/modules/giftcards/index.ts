import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { balanceRoute } from '../accounts/index.ts';

/**
 * The gift card service's routes, mounted on both gift card bases (live and sandbox). Every route
 * needs the `developer` scope (decisions §2) unless it declares otherwise.
 */
export const GIFTCARDS_DEFAULT_SCOPE = 'developer';

export function giftcardRoutes(app: FastifyInstance, services: Services) {
  balanceRoute(app, services.accounts, GIFTCARDS_DEFAULT_SCOPE);
}

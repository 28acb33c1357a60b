import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { balanceRoute } from '../accounts/index.ts';

/**
 * The top-up service's routes, mounted on both top-up bases (live and sandbox). Each route names
 * its scope (decisions §2); there is no default, so a route that forgets is refused to everyone.
 */
export const TOPUPS_DEFAULT_SCOPE = 'topups:undeclared';

export function topupRoutes(app: FastifyInstance, services: Services) {
  balanceRoute(app, services.accounts, 'read-prepaid-balance');
}

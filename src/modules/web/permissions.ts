/**
 * What a web route needs its user to be allowed (issue 28: team roles). A dashboard or console JSON
 * route declares it in its options, `config: { permission: 'credentials' }`; the role of the
 * signed-in user grants a set of them (the roles and their sets are the session's business: a route
 * only says what it needs).
 *
 * Dashboard (a customer's team):
 * - `read`: see the account (overview, balance, transactions, settings as they are)
 * - `credentials`: create and revoke API credentials
 * - `webhooks`: webhook endpoints, their secrets and deliveries
 * - `money`: funding, statements, receipts, exports
 * - `support`: transactions and deliveries (resend), never codes
 * - `codes`: reveal gift card codes
 * - `team`: invite, change and remove teammates; account settings
 *
 * Console (the operator's staff):
 * - `read`: see everything, search, export
 * - `support`: resend deliveries, answer the account's people
 * - `money`: move money (fund, confirm transfers), change accounts, catalogue and settings
 *
 * @example
 * app.post('/api/credentials', { config: { permission: 'credentials' }, schema }, handler);
 */
export const DASHBOARD_PERMISSIONS = [
  'read',
  'credentials',
  'webhooks',
  'money',
  'support',
  'codes',
  'team',
] as const;
export const CONSOLE_PERMISSIONS = ['read', 'support', 'money'] as const;

export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];
export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the signed-in web user must be allowed (modules/web/permissions.ts). */
    permission?: DashboardPermission | ConsolePermission;
  }
}

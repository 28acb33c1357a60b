/**
 * What a web route needs its user to be allowed (issue 28: team roles). A dashboard or console JSON
 * route declares it in its options, `config: { permission: 'credentials' }`; the role of the
 * signed-in user grants a set of them (ROLE_PERMISSIONS below). A route only says what it needs.
 *
 * Dashboard (a customer's team):
 * - `read`: see the account (overview, balance, transactions, settings as they are), and one's own
 *   session and two-step sign-in (every role has it)
 * - `credentials`: create and revoke API credentials
 * - `webhooks`: webhook endpoints, their secrets and deliveries
 * - `money`: funding, statements, receipts, exports
 * - `support`: transactions and deliveries (resend), never codes
 * - `codes`: reveal gift card codes
 * - `team`: invite, change and remove teammates; account settings
 *
 * Console (the operator's staff):
 * - `read`: see everything, search, export; one's own session and two-step sign-in
 * - `support`: resend deliveries, answer the account's people
 * - `money`: move money (fund, confirm transfers), change accounts, catalogue and settings
 * - `team`: invite operators and the first users of an account, change operators' roles
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
export const CONSOLE_PERMISSIONS = ['read', 'support', 'money', 'team'] as const;

export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];
export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];
export type WebPermission = DashboardPermission | ConsolePermission;

/**
 * The roles of a customer's team (the dashboard), most rights first. `owner` has every permission;
 * an account always keeps one owner at least (users/team-service.ts).
 */
export const DASHBOARD_ROLES = ['owner', 'developer', 'finance', 'support', 'viewer'] as const;
/** The roles of the operator's staff (the console). */
export const CONSOLE_ROLES = ['admin', 'support'] as const;

export type DashboardRole = (typeof DASHBOARD_ROLES)[number];
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];
export type WebRole = DashboardRole | ConsoleRole;

export const DASHBOARD_ROLE_PERMISSIONS: Record<DashboardRole, readonly DashboardPermission[]> = {
  owner: DASHBOARD_PERMISSIONS,
  developer: ['read', 'credentials', 'webhooks'],
  finance: ['read', 'money'],
  support: ['read', 'support'],
  viewer: ['read'],
};

export const CONSOLE_ROLE_PERMISSIONS: Record<ConsoleRole, readonly ConsolePermission[]> = {
  admin: CONSOLE_PERMISSIONS,
  support: ['read', 'support'],
};

/** The role a user gets when none is named (the admin API's invitations, as before roles existed). */
export const FIRST_ROLE = { customer: 'owner', operator: 'admin' } as const;

/** The permissions of `role` on its page (none for a role of the other page). */
export function permissionsOf(kind: 'customer' | 'operator', role: string): readonly WebPermission[] {
  const table: Record<string, readonly WebPermission[]> =
    kind === 'customer' ? DASHBOARD_ROLE_PERMISSIONS : CONSOLE_ROLE_PERMISSIONS;
  return Object.hasOwn(table, role) ? table[role] : [];
}

/** The roles of `kind` that grant `permission` (funding's e-mails go to those with `money`). */
export function rolesWith(kind: 'customer' | 'operator', permission: WebPermission): string[] {
  return (kind === 'customer' ? DASHBOARD_ROLES : CONSOLE_ROLES).filter((r) =>
    permissionsOf(kind, r).includes(permission),
  );
}

export function isRoleOf(kind: 'customer' | 'operator', role: string): boolean {
  return (kind === 'customer' ? DASHBOARD_ROLES : CONSOLE_ROLES).some((r) => r === role);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the signed-in web user must be allowed (modules/web/permissions.ts). */
    permission?: WebPermission;
  }
}

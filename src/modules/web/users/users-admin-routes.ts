import type { TypedApp } from '../../../http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import { params } from '../../audit/index.ts';
import { AccountIdParams } from '../web-schemas.ts';
import { AccountInviteBody, OperatorInviteBody } from './team-schemas.ts';
import { Invitation, UserList } from './users-schemas.ts';
import type { UsersService } from './users-service.ts';

/**
 * The admin API's side of the web pages: invite a user of an account (dashboard), create an
 * operator (console), each with a role (none named: owner, admin), list them. Each invitation is a one-time link valid 72 h (never in the audit
 * log: the hook masks `link`). The CLI calls these routes. They live beside the users service they
 * call, as every module keeps its own admin routes (`giftcards/stock/stock-admin-routes.ts`,
 * `upstream/upstream-admin-routes.ts`); app.ts mounts them on the admin base. The audit log's own
 * routes are modules/audit's.
 */
export function usersAdminRoutes(
  app: TypedApp,
  deps: {
    users: UsersService;
    accounts: AccountsService;
    dashboardUrl: string;
    consoleUrl: string;
  },
) {
  const { users, accounts } = deps;

  app.post(
    '/accounts/:accountId/users',
    {
      schema: { params: AccountIdParams, body: AccountInviteBody, response: { 200: Invitation } },
      config: {
        audit: { action: 'user.invite', target: (r) => `account ${params(r).accountId}` },
      },
    },
    async (request) => {
      const { accountId } = request.params;
      await accounts.require(accountId);
      return users.invite('customer', request.body.email, accountId, deps.dashboardUrl, request.body.role);
    },
  );

  app.get(
    '/accounts/:accountId/users',
    { schema: { params: AccountIdParams, response: { 200: UserList } } },
    async (request) => {
      await accounts.require(request.params.accountId);
      return { items: await users.list('customer', request.params.accountId) };
    },
  );

  app.post(
    '/operators',
    {
      schema: { body: OperatorInviteBody, response: { 200: Invitation } },
      config: {
        audit: { action: 'operator.create', target: (r) => (r.body as { email: string }).email },
      },
    },
    async (request) => users.invite('operator', request.body.email, null, deps.consoleUrl, request.body.role),
  );

  app.get('/operators', { schema: { response: { 200: UserList } } }, async () => ({
    items: await users.list('operator'),
  }));
}

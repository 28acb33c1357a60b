import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../../http/paging.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import { AccountIdParams } from '../web-schemas.ts';
import type { AuditLog } from './audit-log.ts';
import { AuditPage, EmailBody, Invitation, UserList } from './users-schemas.ts';
import type { UsersService } from './users-service.ts';

/**
 * The admin API's side of the web pages: invite a user of an account (dashboard), create an
 * operator (console), list them, read the audit log. Each invitation is a one-time link valid 72 h;
 * each is also written to the audit log (actor `admin key`). The CLI calls these routes. They live
 * beside the users service they call, as every module keeps its own admin routes
 * (`giftcards/stock/stock-admin-routes.ts`, `upstream/upstream-admin-routes.ts`); app.ts mounts them
 * on the admin base.
 */
export function usersAdminRoutes(
  app: TypedApp,
  deps: {
    users: UsersService;
    accounts: AccountsService;
    audit: AuditLog;
    dashboardUrl: string;
    consoleUrl: string;
  },
) {
  const { users, accounts, audit } = deps;

  app.post(
    '/accounts/:accountId/users',
    { schema: { params: AccountIdParams, body: EmailBody, response: { 200: Invitation } } },
    async (request) => {
      const { accountId } = request.params;
      await accounts.require(accountId);
      const invited = await users.invite('customer', request.body.email, accountId, deps.dashboardUrl);
      await audit.record({
        userId: null,
        actor: 'admin key',
        action: 'user.invite',
        target: `account ${accountId}`,
        details: { email: invited.email },
        ip: request.ip,
      });
      return invited;
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

  app.post('/operators', { schema: { body: EmailBody, response: { 200: Invitation } } }, async (request) => {
    const invited = await users.invite('operator', request.body.email, null, deps.consoleUrl);
    await audit.record({
      userId: null,
      actor: 'admin key',
      action: 'operator.create',
      target: invited.email,
      ip: request.ip,
    });
    return invited;
  });

  app.get('/operators', { schema: { response: { 200: UserList } } }, async () => ({
    items: await users.list('operator'),
  }));

  app.get(
    '/audit',
    { schema: { querystring: Type.Object(pagingQuery(100)), response: { 200: AuditPage } } },
    async (request) => {
      const page = toLimitOffset(request.query, 100);
      return { items: await audit.list(page), page: page.page, size: page.size };
    },
  );
}

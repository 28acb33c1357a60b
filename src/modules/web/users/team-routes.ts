import type { TypedApp } from '../../../http/schemas.ts';
import { type AuditedRequest, params } from '../../audit/index.ts';
import { CONSOLE_ROLE_PERMISSIONS, DASHBOARD_ROLE_PERMISSIONS } from '../permissions.ts';
import {
  ConsoleInviteBody,
  ConsoleRoleBody,
  DashboardInviteBody,
  DashboardRoleBody,
  MemberParams,
  TeamInvitation,
  TeamList,
  TeamMember,
} from './team-schemas.ts';
import type { UsersService } from './users-service.ts';
import { webUserOf } from './web-session.ts';

/**
 * The team of a page: in the dashboard, the people of the signed-in user's account (its owners invite
 * them with a role, change their role, remove them); in the console, the operators (its admins do).
 * Anyone signed in reads the list; the changes take the `team` permission. An account never loses its
 * last active owner, nor the console its last admin (users-service.ts `changeMember`). A removed
 * member's sessions end at once. The invitation is e-mailed (users/web-messages.ts) and only e-mailed:
 * the answer holds no link, and a member who already signs in gets none (else whoever invites could
 * set a teammate's password and act as them).
 */
export function teamRoutes(
  app: TypedApp,
  deps: {
    users: UsersService;
    page: 'dashboard' | 'console';
    /** The page's URL, for the invitation's link. */
    pageUrl: string;
  },
) {
  const { users } = deps;
  const kind = deps.page === 'dashboard' ? 'customer' : 'operator';
  const schemas =
    deps.page === 'dashboard'
      ? { invite: DashboardInviteBody, role: DashboardRoleBody, table: DASHBOARD_ROLE_PERMISSIONS }
      : { invite: ConsoleInviteBody, role: ConsoleRoleBody, table: CONSOLE_ROLE_PERMISSIONS };
  // the account of the signed-in user (null in the console: the operators)
  const accountOf = (request: AuditedRequest) => webUserOf(request).accountId;
  const member = (r: AuditedRequest) => `user ${params(r).userId}`;
  const memberBefore = async (r: AuditedRequest) =>
    (await users.list(kind, accountOf(r) ?? undefined)).find((u) => u.userId === Number(params(r).userId)) ??
    null;
  const roles = Object.entries(schemas.table).map(([role, permissions]) => ({
    role,
    permissions: [...permissions],
  }));

  app.get(
    '/api/team',
    { config: { permission: 'read' }, schema: { response: { 200: TeamList } } },
    async (request) => ({ items: await users.list(kind, accountOf(request) ?? undefined), roles }),
  );

  app.post(
    '/api/team/invitations',
    {
      config: {
        permission: 'team',
        audit: { action: 'team.invite', target: (r) => (r.body as { email: string }).email },
      },
      schema: { body: schemas.invite, response: { 200: TeamInvitation } },
    },
    async (request) => {
      // the link goes by e-mail only: whoever invites never holds another user's way in
      const { link: _link, ...invited } = await users.invite(
        kind,
        request.body.email,
        accountOf(request),
        deps.pageUrl,
        request.body.role,
        { newMembersOnly: true },
      );
      return invited;
    },
  );

  app.post(
    '/api/team/:userId/role',
    {
      config: { permission: 'team', audit: { action: 'team.role', target: member, before: memberBefore } },
      schema: { params: MemberParams, body: schemas.role, response: { 200: TeamMember } },
    },
    async (request) => users.changeMember(kind, accountOf(request), request.params.userId, request.body.role),
  );

  app.post(
    '/api/team/:userId/remove',
    {
      config: { permission: 'team', audit: { action: 'team.remove', target: member, before: memberBefore } },
      schema: { params: MemberParams, response: { 200: TeamMember } },
    },
    async (request) => users.changeMember(kind, accountOf(request), request.params.userId, null),
  );
}

import { Type } from 'typebox';
import { WebUser } from './users-schemas.ts';

/**
 * The JSON of a team: the dashboard's (an account's people) and the console's (the operators), and
 * the role an invitation names. Imports only typebox and schema files (the browser code imports their
 * types). The role lists are modules/web/permissions.ts's (test/web/team.test.ts compares them).
 */
export const DashboardRole = Type.Union(
  [
    Type.Literal('owner'),
    Type.Literal('developer'),
    Type.Literal('finance'),
    Type.Literal('support'),
    Type.Literal('viewer'),
  ],
  {
    description:
      'owner: everything; developer: credentials and webhooks; finance: balance, funding, statements, exports; support: transactions and deliveries (resend), never codes; viewer: read only',
  },
);
export const ConsoleRole = Type.Union([Type.Literal('admin'), Type.Literal('support')], {
  description: 'admin: everything; support: read and resend deliveries, no money moves',
});

/** An invitation of a teammate (dashboard) or an operator (console), with their role. */
export const TeamInviteBody = <Role extends typeof DashboardRole | typeof ConsoleRole>(role: Role) =>
  Type.Object(
    { email: Type.String({ minLength: 3, maxLength: 254 }), role },
    { additionalProperties: false },
  );
export const DashboardInviteBody = TeamInviteBody(DashboardRole);
export const ConsoleInviteBody = TeamInviteBody(ConsoleRole);

/** An invitation the console or the admin API sends to an account's user: the role is optional (owner). */
export const AccountInviteBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Optional(DashboardRole),
  },
  { additionalProperties: false },
);
/** The admin API's invitation of an operator: the role is optional (admin). */
export const OperatorInviteBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Optional(ConsoleRole),
  },
  { additionalProperties: false },
);

export const DashboardRoleBody = Type.Object({ role: DashboardRole }, { additionalProperties: false });
export const ConsoleRoleBody = Type.Object({ role: ConsoleRole }, { additionalProperties: false });

export const MemberParams = Type.Object({ userId: Type.Integer({ minimum: 1 }) });

export const TeamMember = Type.Object({
  ...WebUser.properties,
  removed: Type.Boolean({ description: 'the member was removed: their sessions ended at once' }),
});

export const TeamList = Type.Object({
  items: Type.Array(WebUser),
  roles: Type.Array(
    Type.Object({
      role: Type.String(),
      permissions: Type.Array(Type.String()),
    }),
    { description: 'the roles of this page and what each allows (the `x-permission` of its operations)' },
  ),
});

/** A team's invitation as the inviter sees it: the link went by e-mail only. */
export const TeamInvitation = Type.Object({
  ...WebUser.properties,
  expiresAt: Type.String({ description: 'until when the e-mailed link works (once)' }),
});

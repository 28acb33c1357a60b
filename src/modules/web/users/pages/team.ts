import type { Static } from 'typebox';
import { explain, get, post } from '../../ui/api.ts';
import { confirmDialog, field, h, replace, select, status, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { actionForm, rerender } from '../../ui/widgets.ts';
import type {
  AccountInviteBody,
  ConsoleInviteBody,
  ConsoleRole,
  ConsoleRoleBody,
  DashboardInviteBody,
  DashboardRole,
  DashboardRoleBody,
  TeamInvitation,
  TeamList,
  TeamMember,
} from '../team-schemas.ts';
import type { Invitation } from '../users-schemas.ts';

/**
 * The team, the same page in the dashboard (the account's people) and the console (the operators):
 * who is in it with their role, and, for a user whose role has the `team` permission (an owner, an
 * admin), the invitation form (e-mail and role), a role picker per member and a Remove button. The
 * server refuses what the role cannot do whatever the page shows (modules/web/permissions.ts).
 */
type Role = Static<typeof DashboardRole> | Static<typeof ConsoleRole>;

export const teamPage: PageDef = {
  path: '/team',
  title: 'Team',
  async render(body, _route, session) {
    const team = await get<typeof TeamList>('/api/team');
    const manage = session.permissions.includes('team');
    const message = h('div', { class: 'message' });
    // the roles of this page, as the server lists them
    const roleOptions = team.roles.map((r): [Role, string] => [r.role as Role, r.role]);
    const explainRoles = h(
      'ul',
      { 'data-testid': 'roles' },
      team.roles.map((r) => h('li', {}, h('strong', {}, r.role), `: ${r.permissions.join(', ')}`)),
    );
    const rows = team.items.map((u) => {
      const own = u.email === session.email;
      let role: Node = h('span', {}, u.role);
      if (manage) {
        const picker = select('role', roleOptions, u.role);
        picker.setAttribute('aria-label', `Role of ${u.email}`);
        picker.addEventListener('change', async () => {
          try {
            await post<typeof TeamMember, typeof DashboardRoleBody | typeof ConsoleRoleBody>(
              `/api/team/${u.userId}/role`,
              { role: picker.value },
            );
            replace(message, status(`${u.email} is now ${picker.value}.`));
          } catch (error) {
            picker.value = u.role as Role;
            replace(message, status(explain(error), 'error'));
          }
        });
        role = picker;
      }
      const remove = manage
        ? h(
            'button',
            {
              type: 'button',
              class: 'small danger',
              'aria-label': `Remove ${u.email}`,
              onclick: async () => {
                if (!(await confirmDialog(`Remove ${u.email}? Their sessions end at once.`, 'Remove')))
                  return;
                try {
                  await post<typeof TeamMember>(`/api/team/${u.userId}/remove`);
                  rerender();
                } catch (error) {
                  replace(message, status(explain(error), 'error'));
                }
              },
            },
            'Remove',
          )
        : '';
      return [
        own ? `${u.email} (you)` : u.email,
        role,
        u.active ? 'active' : 'invited',
        u.totpEnabled ? 'on' : 'off',
        remove,
      ];
    });
    body.append(
      message,
      table(`Members (${team.items.length})`, ['E-mail', 'Role', 'Status', 'Two-step sign-in', ''], rows),
    );
    if (manage) {
      const email = h('input', { type: 'email', name: 'email', autocomplete: 'off', required: true });
      const role = select('role', roleOptions, team.roles[team.roles.length - 1]?.role);
      body.append(
        actionForm(
          'Invite a teammate',
          [field('E-mail', email), field('Role', role)],
          'Send invitation',
          async () => {
            const sent = await post<
              typeof TeamInvitation,
              typeof DashboardInviteBody | typeof ConsoleInviteBody
            >('/api/team/invitations', { email: email.value, role: role.value });
            setTimeout(rerender, 1500);
            return `Invitation e-mailed to ${sent.email} as ${sent.role} (the link works once, until ${sent.expiresAt.slice(0, 16).replace('T', ' ')} UTC).`;
          },
        ),
      );
    }
    body.append(h('h2', {}, 'What each role may do'), explainRoles);
  },
};

/**
 * The console's invitation of an account's dashboard user with a role (its first owner, say), on the
 * account's page; the link is e-mailed and shown here too, for an installation without e-mail.
 */
export function accountInviteForm(accountId: number): HTMLFormElement {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'off', required: true });
  const role = select<Static<typeof DashboardRole>>(
    'role',
    [
      ['owner', 'owner'],
      ['developer', 'developer'],
      ['finance', 'finance'],
      ['support', 'support'],
      ['viewer', 'viewer'],
    ],
    'owner',
  );
  return actionForm(
    'Invite a dashboard user',
    [field('E-mail', email), field('Role', role)],
    'Send invitation',
    async () => {
      const sent = await post<typeof Invitation, typeof AccountInviteBody>(
        `/api/accounts/${accountId}/users`,
        {
          email: email.value,
          role: role.value,
        },
      );
      // the link stays on screen (no redraw) for an installation that sends no e-mail
      return `Invitation e-mailed to ${sent.email} as ${sent.role}. Its link, valid once: ${sent.link}`;
    },
  );
}

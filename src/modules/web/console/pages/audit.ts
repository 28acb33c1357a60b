import { get } from '../../ui/api.ts';
import { h, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { pageNumber } from '../../ui/widgets.ts';
import type { AuditPage } from '../../users/users-schemas.ts';

/** The audit log: every change made by operators (and by the admin key), newest first. */
export const auditPage: PageDef = {
  path: '/audit',
  title: 'Audit log',
  async render(body, route) {
    const page = pageNumber(route);
    const r = await get<typeof AuditPage>('/api/audit', { page, size: 50 });
    body.append(
      table(
        'Every change made by operators, newest first',
        ['When (UTC)', 'Who', 'What', 'On', 'Details', 'From'],
        r.items.map((e) => [
          e.at,
          e.actor,
          e.action,
          e.target ?? '—',
          h('code', {}, JSON.stringify(e.details)),
          e.ip ?? '—',
        ]),
      ),
    );
  },
};

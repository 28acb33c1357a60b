import type { AuditPage, AuditVerification } from '../../../audit/audit-schemas.ts';
import { get, url } from '../../ui/api.ts';
import { field, h, replace, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { noMatch, pageNumber, pager } from '../../ui/widgets.ts';

/**
 * The audit log of every channel (the admin API and the CLI, the console, the dashboard), newest
 * first, with each change's before and after; filtered by action, downloaded as CSV, its hash chain
 * verified (modules/audit).
 */
export const auditPage: PageDef = {
  path: '/audit',
  title: 'Audit log',
  async render(body, route) {
    const page = pageNumber(route);
    const action = route.query.get('action') ?? '';
    const r = await get<typeof AuditPage>('/api/audit', { page, size: 50, action });
    const verdict = h('div', { class: 'message' });
    const actionBox = h('input', {
      type: 'text',
      name: 'action',
      value: action,
      placeholder: 'account.fund',
    });
    const filter = h(
      'form',
      { class: 'filters', 'aria-label': 'Filter' },
      field('Action (or a prefix ending in a dot)', actionBox),
      h('button', { type: 'submit', class: 'primary' }, 'Filter'),
    );
    filter.addEventListener('submit', (event) => {
      event.preventDefault();
      go('/audit', { action: actionBox.value });
    });
    const verify = async () => {
      const v = await get<typeof AuditVerification>('/api/audit/verify');
      replace(
        verdict,
        v.ok
          ? status(`The chain of ${v.lines} lines holds: no line was removed or edited.`)
          : status(`The chain is broken: ${v.problems.map((p) => p.problem).join('; ')}`, 'error'),
      );
    };
    body.append(
      filter,
      h(
        'p',
        { class: 'actions' },
        h(
          'a',
          { href: url('/api/audit.csv', { action }), download: 'audit.csv', class: 'button' },
          'Download CSV',
        ),
        ' ',
        h('button', { type: 'button', onclick: verify }, 'Verify the chain'),
      ),
      verdict,
      table(
        'Every change, whichever channel made it (admin API and CLI, console, dashboard), newest first',
        ['#', 'When (UTC)', 'Channel', 'Who', 'What', 'On', 'Asked', 'Before → after', 'From'],
        r.items.map((e) => [
          String(e.auditId),
          e.at,
          e.channel,
          e.actor,
          e.action,
          e.target ?? '—',
          h('code', {}, JSON.stringify(e.details)),
          e.before === null && e.after === null
            ? '—'
            : h('code', {}, `${JSON.stringify(e.before)} → ${JSON.stringify(e.after)}`),
          e.ip ?? '—',
        ]),
        action ? noMatch(`No change matches “${action}”.`, () => go('/audit')) : 'No change yet.',
      ),
      pager(page, r.hasMore, (p) => go('/audit', { action, page: String(p) })),
    );
  },
};

import type { TSchema } from 'typebox';
import { get, post } from '../../ui/api.ts';
import { confirmDialog, h, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { pageNumber, pager, rerender, searchForm } from '../../ui/widgets.ts';
import type { OperatorPage, StatusBody } from '../console-schemas.ts';

/** The top-up operators (search, activate, deactivate on both environments). */
export const operatorsPage: PageDef = {
  path: '/operators',
  title: 'Top-up operators',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const page = pageNumber(route);
    const r = await get<typeof OperatorPage>('/api/topup-operators', { search, page, size: 25 });
    body.append(
      h(
        'p',
        {},
        'A deactivated operator is not listed or auto-detected on either environment, and top-ups to it ',
        'are refused (422 OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE). On a live catalogue synced from ',
        'an upstream, activating cannot bring back an operator the upstream has inactive.',
      ),
      searchForm('Search operators', 'Operator name, id or country (ISO)', search, (text) =>
        go('/operators', { search: text }),
      ),
      table(
        `Top-up operators (${r.total} found), page ${page}`,
        ['Id', 'Name', 'Country', 'Status', 'Change'],
        r.items.map((o) => {
          const next = o.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
          const verb = next === 'INACTIVE' ? 'Deactivate' : 'Activate';
          return [
            String(o.operatorId),
            o.name,
            o.countryCode,
            h('span', { class: `badge ${o.status === 'ACTIVE' ? 'successful' : 'failed'}` }, o.status),
            h(
              'button',
              {
                type: 'button',
                class: next === 'INACTIVE' ? 'small danger' : 'small',
                'aria-label': `${verb} operator ${o.operatorId}`,
                onclick: async () => {
                  if (!(await confirmDialog(`${verb} top-up operator ${o.operatorId} (${o.name})?`, verb)))
                    return;
                  // the answer (the admin API's TopupOperatorStatus, topups/catalog) is not read
                  await post<TSchema, typeof StatusBody>(`/api/topup-operators/${o.operatorId}/status`, {
                    status: next,
                  });
                  rerender();
                },
              },
              verb,
            ),
          ];
        }),
      ),
      pager(page, page * 25 < r.total, (p) => go('/operators', { search, page: String(p) })),
    );
  },
};

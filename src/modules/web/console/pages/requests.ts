import { field, h } from '../../ui/dom.ts';
import { requestLog } from '../../ui/request-log.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { environmentSelect, envOf } from '../../ui/widgets.ts';

/** One account's API requests, as its dashboard users see them (modules/request-log). */
export const requestsPage: PageDef = {
  path: '/requests',
  title: 'Request log',
  async render(body, route) {
    const account = route.query.get('account') ?? '';
    const env = envOf(route);
    const id = h('input', { name: 'account', inputmode: 'numeric', required: true, value: account });
    const environment = environmentSelect(env);
    const pick = h(
      'form',
      { class: 'filters', 'aria-label': 'Account' },
      field('Account id', id),
      field('Environment', environment),
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
    );
    pick.addEventListener('submit', (event) => {
      event.preventDefault();
      go('/requests', { account: id.value, environment: environment.value });
    });
    body.append(pick);
    if (!/^\d+$/.test(account)) {
      body.append(h('p', {}, 'Enter the id of the account whose requests to read.'));
      return;
    }
    await requestLog(body, route, {
      api: `/api/accounts/${account}/requests`,
      env,
      to: (query) => go('/requests', { account, ...query }),
    });
  },
};

import { get, post } from '../../ui/api.ts';
import { field, h, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { actionForm, environmentSelect, noMatch, searchForm } from '../../ui/widgets.ts';
import type { AccountList, CreateAccountBody, CreatedAccount } from '../console-schemas.ts';

/** Every account (search by name or id) and the form that creates one with its first credential. */
export const accountsPage: PageDef = {
  path: '/accounts',
  title: 'Accounts',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const r = await get<typeof AccountList>('/api/accounts', { search, size: 50 });
    const form = searchForm('Search accounts', 'Name or id', search, (text) =>
      go('/accounts', { search: text }),
    );
    const name = h('input', { name: 'name', required: true });
    const currency = h('input', { name: 'currency', value: 'USD', required: true, maxlength: 3 });
    const country = h('input', { name: 'country', value: 'US', required: true, maxlength: 2 });
    const env = environmentSelect('sandbox');
    const fund = h('input', { name: 'fund', inputmode: 'decimal', value: '0' });
    body.append(
      form,
      table(
        'Accounts',
        ['Id', 'Name', 'Currency', 'Country', 'Status', 'Created (UTC)'],
        r.items.map((a) => [
          h('a', { href: `#/account?id=${a.accountId}` }, String(a.accountId)),
          a.name,
          a.currencyCode,
          a.countryCode,
          h('span', { class: `badge ${a.status === 'ACTIVE' ? 'successful' : 'failed'}` }, a.status),
          a.createdAt,
        ]),
        search ? noMatch(`No account matches “${search}”.`, () => go('/accounts')) : 'No accounts yet.',
      ),
      actionForm(
        'Create an account',
        [
          field('Name', name),
          field('Currency', currency),
          field('Country', country),
          field('First credential environment', env),
          field('Initial funding', fund),
        ],
        'Create account',
        async () => {
          const made = await post<typeof CreatedAccount, typeof CreateAccountBody>('/api/accounts', {
            name: name.value,
            currency: currency.value,
            country: country.value,
            environment: env.value,
            fund: fund.value || '0',
          });
          return `Account ${made.accountId} created. client_id ${made.clientId}, client_secret ${made.clientSecret} (shown once).`;
        },
      ),
    );
  },
};

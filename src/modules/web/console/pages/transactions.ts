import { get } from '../../ui/api.ts';
import { field, h, money, select, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { environmentSelect, envOf, pageNumber, pager } from '../../ui/widgets.ts';
import type { TransactionPage } from '../console-schemas.ts';

/** The transactions of every account, of one environment and product. */
export const transactionsPage: PageDef = {
  path: '/transactions',
  title: 'Transactions',
  async render(body, route) {
    const env = envOf(route);
    const page = pageNumber(route);
    const product = route.query.get('product') ?? 'all';
    const r = await get<typeof TransactionPage>('/api/transactions', {
      environment: env,
      product,
      page,
      size: 25,
    });
    const envSel = environmentSelect(env);
    const prodSel = select(
      'product',
      [
        ['all', 'Both products'],
        ['giftcards', 'Gift cards'],
        ['topups', 'Top-ups'],
      ],
      product,
    );
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Filters' },
      field('Environment', envSel),
      field('Product', prodSel),
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go('/transactions', { environment: envSel.value, product: prodSel.value });
    });
    body.append(
      form,
      table(
        `Transactions of every account (${env})`,
        ['Product', 'Id', 'Account', 'Status', 'What', 'Cost', 'When (UTC)'],
        r.items.map((t) => [
          t.product,
          String(t.transactionId),
          h('a', { href: `#/account?id=${t.accountId}` }, String(t.accountId)),
          t.status,
          t.description,
          money(t.cost, t.currencyCode),
          t.createdAt,
        ]),
      ),
      pager(page, r.hasMore, (p) => go('/transactions', { environment: env, product, page: String(p) })),
    );
  },
};

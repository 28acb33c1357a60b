import { get, url } from '../../ui/api.ts';
import { field, h, select, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { envOf, noMatch, pageNumber, pager } from '../../ui/widgets.ts';
import type { TransactionPage } from '../dashboard-schemas.ts';
import { TX_HEAD, transactionRows } from './transaction-rows.ts';

/** Both products' transactions of one environment: filters, CSV export, pages, the codes. */
export const transactionsPage: PageDef = {
  path: '/transactions',
  title: 'Transactions',
  async render(body, route) {
    const env = envOf(route);
    const q = route.query;
    const page = pageNumber(route);
    const filter = {
      environment: env,
      product: q.get('product') ?? 'all',
      status: q.get('status') ?? '',
      customIdentifier: q.get('customIdentifier') ?? '',
      startDate: q.get('startDate') ?? '',
      endDate: q.get('endDate') ?? '',
    };
    const product = select(
      'product',
      [
        ['all', 'Both products'],
        ['giftcards', 'Gift cards'],
        ['topups', 'Top-ups'],
      ],
      filter.product,
    );
    const state = select(
      'status',
      [
        ['', 'Any status'],
        ...['SUCCESSFUL', 'PROCESSING', 'PENDING', 'FAILED', 'REFUNDED'].map(
          (s) => [s, s] as [string, string],
        ),
      ],
      filter.status,
    );
    const custom = h('input', { type: 'text', name: 'customIdentifier', value: filter.customIdentifier });
    const from = h('input', { type: 'date', name: 'startDate', value: filter.startDate });
    const to = h('input', { type: 'date', name: 'endDate', value: filter.endDate });
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Filters' },
      field('Product', product),
      field('Status', state),
      field('customIdentifier', custom),
      field('From', from),
      field('To', to),
      h('button', { type: 'submit', class: 'primary' }, 'Filter'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      go('/transactions', {
        environment: env,
        product: product.value,
        status: state.value,
        customIdentifier: custom.value,
        startDate: from.value,
        endDate: to.value,
      });
    });
    const query = { ...filter, page, size: 20 };
    const filtered =
      [filter.status, filter.customIdentifier, filter.startDate, filter.endDate].some(Boolean) ||
      filter.product !== 'all';
    const result = await get<typeof TransactionPage>('/api/transactions', query);
    body.append(
      form,
      h(
        'p',
        {},
        h(
          'a',
          {
            href: url('/api/transactions.csv', filter),
            download: `transactions-${env}.csv`,
            class: 'button',
          },
          'Export CSV',
        ),
      ),
      table(
        `Transactions (${env}), page ${page}`,
        [...TX_HEAD, 'Codes'],
        transactionRows(result.items, env, true),
        filtered
          ? noMatch(`No transaction in ${env} matches these filters.`, () =>
              go('/transactions', { environment: env }),
            )
          : `No transactions in ${env} yet.`,
      ),
      pager(page, result.hasMore, (p) => go('/transactions', { ...filter, page: String(p) })),
    );
  },
};

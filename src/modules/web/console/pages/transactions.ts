import type { Static } from 'typebox';
import { ApiError, explain, get, url } from '../../ui/api.ts';
import { field, h, select, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { transactionLink } from '../../ui/transaction-receipt.ts';
import { environmentSelect, envOf, noMatch, pageNumber, pager } from '../../ui/widgets.ts';
import type { TransactionSearchPage } from '../search-schemas.ts';

/**
 * Support work: both products' transactions of every account, searched by status, account,
 * customIdentifier, transaction id, recipient and dates, paged and downloaded as CSV with the same
 * filters. Without `?environment=` the server picks the environment that has transactions.
 */
const FILTERS = [
  'product',
  'status',
  'accountId',
  'customIdentifier',
  'transactionId',
  'recipient',
  'startDate',
  'endDate',
] as const;
const STATUSES = ['SUCCESSFUL', 'PROCESSING', 'PENDING', 'FAILED', 'REFUNDED'];
const PRODUCT_NAMES = { giftcards: 'Gift card', topups: 'Top-up' };

export const transactionsPage: PageDef = {
  path: '/transactions',
  title: 'Transactions',
  async render(body, route) {
    const q = route.query;
    const page = pageNumber(route);
    const filter = Object.fromEntries(FILTERS.map((k) => [k, q.get(k) ?? ''])) as Record<
      (typeof FILTERS)[number],
      string
    >;
    // a filter the server refuses (a recipient that is no address or number, dates the wrong way
    // round) is said above the form, which stays there to be corrected
    let r: Static<typeof TransactionSearchPage> | null = null;
    let refused: string | null = null;
    try {
      r = await get<typeof TransactionSearchPage>('/api/transactions', {
        environment: q.get('environment'),
        ...filter,
        page,
        size: 25,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      refused = explain(error);
    }
    const env = r?.environment ?? envOf(route);
    const inputs = {
      environment: environmentSelect(env),
      product: select(
        'product',
        [
          ['all', 'Both products'],
          ['giftcards', 'Gift cards'],
          ['topups', 'Top-ups'],
        ],
        filter.product || 'all',
      ),
      status: select(
        'status',
        [['', 'Any status'], ...STATUSES.map((s) => [s, s] as [string, string])],
        filter.status,
      ),
      accountId: h('input', { name: 'accountId', inputmode: 'numeric', value: filter.accountId }),
      customIdentifier: h('input', { name: 'customIdentifier', value: filter.customIdentifier }),
      transactionId: h('input', { name: 'transactionId', inputmode: 'numeric', value: filter.transactionId }),
      recipient: h('input', {
        name: 'recipient',
        value: filter.recipient,
        placeholder: 'e-mail or +phone',
        autocomplete: 'off',
      }),
      startDate: h('input', { type: 'date', name: 'startDate', value: filter.startDate }),
      endDate: h('input', { type: 'date', name: 'endDate', value: filter.endDate }),
    };
    const form = h(
      'form',
      { class: 'filters', role: 'search', 'aria-label': 'Search transactions' },
      field('Environment', inputs.environment),
      field('Product', inputs.product),
      field('Status', inputs.status),
      field('Account id', inputs.accountId),
      field('customIdentifier', inputs.customIdentifier),
      field('Transaction id', inputs.transactionId),
      field('Recipient', inputs.recipient),
      field('From', inputs.startDate),
      field('To', inputs.endDate),
      h('button', { type: 'submit', class: 'primary' }, 'Search'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go(
        '/transactions',
        Object.fromEntries(Object.entries(inputs).map(([k, input]) => [k, input.value.trim()])),
      );
    });
    const clear = () => go('/transactions', { environment: env });
    const filtered = FILTERS.some((k) => filter[k] !== '' && !(k === 'product' && filter[k] === 'all'));
    if (!r) {
      body.append(
        status(refused ?? '', 'error'),
        form,
        h('button', { type: 'button', onclick: clear }, 'Clear filters'),
      );
      return;
    }
    body.append(
      form,
      h(
        'p',
        { class: 'actions' },
        h(
          'a',
          {
            class: 'button',
            href: url('/api/transactions.csv', { environment: env, ...filter }),
            download: `transactions-${env}.csv`,
          },
          'Export CSV',
        ),
        filtered ? h('button', { type: 'button', onclick: clear }, 'Clear filters') : null,
      ),
      table(
        `Transactions of every account (${env}), page ${page}`,
        ['Product', 'Id', 'Account', 'Status', 'What', 'customIdentifier', 'Recipient', 'Cost', 'When (UTC)'],
        r.items.map((t) => [
          PRODUCT_NAMES[t.product],
          transactionLink(env, t.product, t.transactionId, `&account=${t.accountId}`),
          h('a', { href: `#/account?id=${t.accountId}` }, `${t.accountName} (${t.accountId})`),
          h('span', { class: `badge ${t.status.toLowerCase()}` }, t.status),
          t.description,
          t.customIdentifier ?? '—',
          t.recipient ?? '—',
          h('span', { class: 'money', 'data-exact': t.cost }, t.costText),
          t.createdAt,
        ]),
        filtered
          ? noMatch(`No transaction in ${env} matches these filters.`, clear)
          : `No transactions in ${env} yet.`,
      ),
      pager(page, r.hasMore, (p) => go('/transactions', { environment: env, ...filter, page: String(p) })),
    );
  },
};

import { get, post, url } from '../shared/api.ts';
import { barChart, legend } from '../shared/chart.ts';
import { confirmDialog, field, h, money, replace, select, status, table } from '../shared/dom.ts';
import { securityPage } from '../shared/security.ts';
import { currentRoute, explain, go, type PageDef, start } from '../shared/shell.ts';
import { type Env, environmentSelect, envOf, pager, rerender, shapesForm } from '../shared/widgets.ts';
import { brandingPage, deliveryLink, deliveryPage } from './delivery.ts';

/**
 * The account dashboard: overview, API credentials, transactions, balance history, docs, settings,
 * two-step sign-in. Every page shows one environment (live or sandbox, `?environment=` in the address,
 * chosen in the header).
 */

interface Line {
  product: 'giftcards' | 'topups';
  transactionId: number;
  status: string;
  description: string;
  customIdentifier: string | null;
  cost: number;
  currencyCode: string;
  createdAt: string;
}

const PRODUCT_NAMES = { giftcards: 'Gift card', topups: 'Top-up' };

function transactionRows(items: Line[], env: Env, withCodes: boolean) {
  return items.map((t) => {
    const codes = h('div', { class: 'codes' });
    const reveal =
      withCodes && t.product === 'giftcards' && t.status === 'SUCCESSFUL'
        ? h(
            'button',
            {
              type: 'button',
              class: 'small',
              'aria-label': `Show codes of gift card order ${t.transactionId}`,
              onclick: async (event: Event) => {
                const button = event.currentTarget as HTMLButtonElement;
                try {
                  const r = await post<{ cards: { cardNumber: string; pinCode: string }[] }>(
                    `/api/giftcards/transactions/${t.transactionId}/codes`,
                    {},
                    { environment: env },
                  );
                  button.remove();
                  replace(
                    codes,
                    h(
                      'ul',
                      { class: 'code-list' },
                      r.cards.map((c) =>
                        h('li', {}, h('code', {}, c.cardNumber), ' PIN ', h('code', {}, c.pinCode)),
                      ),
                    ),
                  );
                } catch (error) {
                  replace(codes, status(explain(error), 'error'));
                }
              },
            },
            'Show codes',
          )
        : null;
    return [
      PRODUCT_NAMES[t.product],
      String(t.transactionId),
      h('span', { class: `badge ${t.status.toLowerCase()}` }, t.status),
      t.description,
      t.customIdentifier ?? '—',
      money(t.cost, t.currencyCode),
      t.createdAt,
      ...(withCodes
        ? [
            [
              reveal,
              codes,
              t.product === 'giftcards' && t.status === 'SUCCESSFUL'
                ? deliveryLink(env, t.transactionId)
                : null,
            ],
          ]
        : []),
    ];
  });
}

const TX_HEAD = ['Product', 'Id', 'Status', 'What', 'customIdentifier', 'Cost', 'When (UTC)'];

const overview: PageDef = {
  path: '/overview',
  title: 'Overview',
  async render(body, route) {
    const env = envOf(route);
    const o = await get<{
      account: { name: string; currencyCode: string; status: string };
      balances: Record<Env, { balance: number; currencyCode: string; updatedAt: string | null }>;
      spendPerDay: { day: string; spend: number }[];
      recent: Line[];
    }>('/api/overview', { environment: env });
    const series = [{ name: `Spend (${o.account.currencyCode})`, values: o.spendPerDay.map((d) => d.spend) }];
    body.append(
      h(
        'section',
        { class: 'cards', 'aria-label': 'Balances' },
        ...(['live', 'sandbox'] as const).map((e) =>
          h(
            'div',
            { class: `card balance ${e === env ? 'current' : ''}` },
            h('h2', {}, `${e === 'live' ? 'Live' : 'Sandbox'} balance`),
            h(
              'p',
              { class: 'amount', 'data-testid': `balance-${e}` },
              money(o.balances[e].balance, o.balances[e].currencyCode),
            ),
            h(
              'p',
              { class: 'muted' },
              o.balances[e].updatedAt ? `updated ${o.balances[e].updatedAt} UTC` : 'no entry yet',
            ),
          ),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'spend-title' },
        h('h2', { id: 'spend-title' }, `Spend per day, last 30 days (${env})`),
        barChart(
          `Spend per day (${env})`,
          o.spendPerDay.map((d) => d.day),
          series,
          ` ${o.account.currencyCode}`,
        ),
        legend(series),
      ),
      h(
        'section',
        { 'aria-labelledby': 'recent-title' },
        h('h2', { id: 'recent-title' }, 'Recent transactions'),
        table(`Latest transactions (${env})`, TX_HEAD, transactionRows(o.recent, env, false)),
      ),
    );
  },
};

const credentials: PageDef = {
  path: '/credentials',
  title: 'API credentials',
  async render(body, route) {
    const env = envOf(route);
    const list = await get<{
      items: {
        clientId: string;
        environment: Env;
        scopes: string[];
        revoked: boolean;
        createdAt: string;
        lastUsedAt: string | null;
      }[];
      scopes: string[];
    }>('/api/credentials');
    const message = h('div', { class: 'message' });
    const boxes = list.scopes.map((s) =>
      h('input', { type: 'checkbox', name: 'scope', value: s, checked: true, id: `scope-${s}` }),
    );
    const envSelect = environmentSelect(env);
    const form = h(
      'form',
      { class: 'card', 'aria-labelledby': 'new-cred' },
      h('h2', { id: 'new-cred' }, 'Create a credential'),
      field('Environment', envSelect),
      h(
        'fieldset',
        {},
        h('legend', {}, 'Scopes'),
        ...list.scopes.map((s, i) =>
          h('div', { class: 'check' }, boxes[i], h('label', { for: `scope-${s}` }, s)),
        ),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Create credential'),
      message,
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const made = await post<{ clientId: string; clientSecret: string; environment: Env }>(
          '/api/credentials',
          {
            environment: envSelect.value,
            scopes: boxes.filter((b) => b.checked).map((b) => b.value),
          },
        );
        const copy = h(
          'button',
          {
            type: 'button',
            class: 'small',
            onclick: async () => {
              await navigator.clipboard.writeText(made.clientSecret).catch(() => undefined);
              copy.textContent = 'Copied';
            },
          },
          'Copy secret',
        );
        replace(
          message,
          h(
            'div',
            { class: 'secret', role: 'status' },
            h('p', {}, h('strong', {}, 'Copy the secret now: it is shown only once.')),
            h('p', {}, 'client_id ', h('code', { 'data-testid': 'new-client-id' }, made.clientId)),
            h(
              'p',
              {},
              'client_secret ',
              h('code', { 'data-testid': 'new-client-secret' }, made.clientSecret),
              ' ',
              copy,
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'small',
                onclick: () => rerender(),
              },
              'Done',
            ),
          ),
        );
      } catch (error) {
        replace(message, status(explain(error), 'error'));
      }
    });
    const rows = list.items.map((c) => [
      h('code', {}, c.clientId),
      c.environment,
      c.scopes.join(' '),
      c.createdAt,
      c.lastUsedAt ?? 'never',
      c.revoked
        ? h('span', { class: 'badge revoked' }, 'revoked')
        : h(
            'button',
            {
              type: 'button',
              class: 'small danger',
              'aria-label': `Revoke ${c.clientId}`,
              onclick: async () => {
                if (
                  !(await confirmDialog(`Revoke ${c.clientId}? Its tokens stop working at once.`, 'Revoke'))
                )
                  return;
                try {
                  await post(`/api/credentials/${encodeURIComponent(c.clientId)}/revoke`);
                  rerender();
                } catch (error) {
                  replace(message, status(explain(error), 'error'));
                }
              },
            },
            'Revoke',
          ),
    ]);
    body.append(
      table(
        'Credentials of both environments',
        ['client_id', 'Environment', 'Scopes', 'Created (UTC)', 'Last used (UTC)', 'State'],
        rows,
      ),
      form,
    );
  },
};

const transactions: PageDef = {
  path: '/transactions',
  title: 'Transactions',
  async render(body, route) {
    const env = envOf(route);
    const q = route.query;
    const page = Number(q.get('page') ?? '1') || 1;
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
    const result = await get<{ items: Line[]; hasMore: boolean }>('/api/transactions', query);
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
      ),
      pager(page, result.hasMore, (p) => go('/transactions', { ...filter, page: String(p) })),
    );
  },
};

const balance: PageDef = {
  path: '/balance',
  title: 'Balance history',
  async render(body, route) {
    const env = envOf(route);
    const page = Number(route.query.get('page') ?? '1') || 1;
    const r = await get<{
      items: {
        entryId: number;
        kind: string;
        amount: number;
        balanceAfter: number;
        currencyCode: string;
        reason: string | null;
        product: string | null;
        transactionId: number | null;
        createdAt: string;
      }[];
      hasMore: boolean;
    }>('/api/ledger', { environment: env, page, size: 25 });
    body.append(
      table(
        `Ledger entries (${env}), newest first`,
        ['Entry', 'When (UTC)', 'Kind', 'Amount', 'Balance after', 'Reason', 'Transaction'],
        r.items.map((e) => [
          String(e.entryId),
          e.createdAt,
          e.kind,
          money(e.amount, e.currencyCode),
          money(e.balanceAfter, e.currencyCode),
          e.reason ?? '—',
          e.transactionId ? `${e.product} ${e.transactionId}` : '—',
        ]),
      ),
      pager(page, r.hasMore, (p) => go('/balance', { environment: env, page: String(p) })),
    );
  },
};

const docs: PageDef = {
  path: '/docs',
  title: 'Docs',
  async render(body) {
    const d = await get<{
      bases: { title: string; url: string; docs: string }[];
      errors: string;
      openapi: string;
      sandboxTestValues: { product: string; value: string; outcome: string }[];
    }>('/api/docs');
    body.append(
      h(
        'section',
        { 'aria-labelledby': 'ref' },
        h('h2', { id: 'ref' }, 'API reference'),
        h(
          'ul',
          {},
          d.bases.map((b) =>
            h(
              'li',
              {},
              h('a', { href: b.docs }, `${b.title} reference`),
              ' — base URL ',
              h('code', {}, b.url),
            ),
          ),
          h('li', {}, h('a', { href: d.errors }, 'Error codes')),
        ),
      ),
      h(
        'section',
        { 'aria-labelledby': 'tv' },
        h('h2', { id: 'tv' }, 'Sandbox test values'),
        table(
          'What each sandbox test value does',
          ['Product', 'Value', 'Outcome'],
          d.sandboxTestValues.map((v) => [v.product, v.value, v.outcome]),
        ),
      ),
    );
  },
};

/** The account's own settings: which shapes its gift card answers take (docs/compatibility.md). */
const settings: PageDef = {
  path: '/settings',
  title: 'Settings',
  async render(body) {
    const current = await get<{ shapes: string }>('/api/settings');
    body.append(
      shapesForm(current.shapes, async (shapes) => {
        await post('/api/settings', { shapes });
      }),
    );
  },
};

function environmentPicker(): Node[] {
  const picker = environmentSelect(envOf(currentRoute()));
  picker.id = 'environment-picker';
  picker.addEventListener('change', () => {
    const route = currentRoute();
    go(route.path === '/' ? '/overview' : route.path, { environment: picker.value });
  });
  window.addEventListener('hashchange', () => {
    picker.value = envOf(currentRoute());
  });
  return [h('label', { for: picker.id, class: 'env-label' }, 'Environment'), picker];
}

void start(
  'dashboard',
  [overview, credentials, transactions, deliveryPage, balance, brandingPage, docs, settings, securityPage],
  environmentPicker,
);

import { get, post } from '../shared/api.ts';
import { barChart, legend, type Series } from '../shared/chart.ts';
import { confirmDialog, field, h, money, select, status, table } from '../shared/dom.ts';
import { securityPage } from '../shared/security.ts';
import { go, type PageDef, start } from '../shared/shell.ts';
import {
  actionForm,
  type Env,
  environmentSelect,
  envOf,
  pager,
  rerender,
  searchForm,
  shapesForm,
} from '../shared/widgets.ts';

/**
 * The operator console: accounts (search, create, fund, adjust, limits, deactivate, credentials,
 * users), transactions of every account, ledger audit, catalogue, code stock, top-up operators
 * (activate/deactivate), audit log, two-step sign-in, and a chart of orders and revenue (in USD) per
 * day per product. Every change is recorded in the audit log server-side.
 */

interface AccountLine {
  accountId: number;
  name: string;
  currencyCode: string;
  countryCode: string;
  status: string;
  createdAt: string;
}

const accounts: PageDef = {
  path: '/accounts',
  title: 'Accounts',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const r = await get<{ items: AccountLine[] }>('/api/accounts', { search, size: 50 });
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
          const made = await post<{ accountId: number; clientId: string; clientSecret: string }>(
            '/api/accounts',
            {
              name: name.value,
              currency: currency.value,
              country: country.value,
              environment: env.value,
              fund: fund.value || '0',
            },
          );
          return `Account ${made.accountId} created. client_id ${made.clientId}, client_secret ${made.clientSecret} (shown once).`;
        },
      ),
    );
  },
};

const account: PageDef = {
  path: '/account',
  title: 'Account',
  async render(body, route) {
    const id = Number(route.query.get('id'));
    const r = await get<{
      account: AccountLine & {
        dailyCountLimit: number | null;
        dailyAmountLimit: number | null;
        shapes: string;
        balances: Record<Env, { balance: number }>;
        credentials: {
          clientId: string;
          environment: string;
          scopes: string[];
          revoked: boolean;
          createdAt: string;
        }[];
      };
      users: { email: string; active: boolean; createdAt: string }[];
    }>(`/api/accounts/${id}`);
    const a = r.account;
    const amountInput = () => h('input', { name: 'amount', inputmode: 'decimal', required: true });
    const fundAmount = amountInput();
    const fundEnv = environmentSelect();
    const fundReason = h('input', { name: 'reason', required: true, value: 'top-up by bank transfer' });
    const adjAmount = amountInput();
    const adjEnv = environmentSelect();
    const adjReason = h('input', { name: 'reason', required: true });
    const countLimit = h('input', {
      name: 'dailyCountLimit',
      inputmode: 'numeric',
      value: a.dailyCountLimit ?? '',
    });
    const amountLimit = h('input', {
      name: 'dailyAmountLimit',
      inputmode: 'decimal',
      value: a.dailyAmountLimit ?? '',
    });
    const next = a.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
    body.append(
      h(
        'section',
        { class: 'cards', 'aria-label': 'Summary' },
        h(
          'div',
          { class: 'card' },
          h('h2', {}, a.name),
          h('p', {}, `Account ${a.accountId} · ${a.currencyCode} · ${a.countryCode} · ${a.status}`),
          h(
            'button',
            {
              type: 'button',
              class: next === 'INACTIVE' ? 'danger' : '',
              onclick: async () => {
                if (
                  !(await confirmDialog(
                    `${next === 'INACTIVE' ? 'Deactivate' : 'Activate'} account ${a.accountId}?`,
                    'Confirm',
                  ))
                )
                  return;
                await post(`/api/accounts/${id}/status`, { status: next });
                rerender();
              },
            },
            next === 'INACTIVE' ? 'Deactivate' : 'Activate',
          ),
        ),
        ...(['live', 'sandbox'] as const).map((e) =>
          h(
            'div',
            { class: 'card balance' },
            h('h2', {}, `${e === 'live' ? 'Live' : 'Sandbox'} balance`),
            h(
              'p',
              { class: 'amount', 'data-testid': `balance-${e}` },
              money(a.balances[e].balance, a.currencyCode),
            ),
          ),
        ),
      ),
      h(
        'div',
        { class: 'grid2' },
        actionForm(
          'Fund',
          [field('Environment', fundEnv), field('Amount', fundAmount), field('Reason', fundReason)],
          'Fund',
          async () => {
            const c = await post<{ newBalance: number }>(`/api/accounts/${id}/fund`, {
              environment: fundEnv.value,
              amount: fundAmount.value,
              reason: fundReason.value,
            });
            setTimeout(rerender, 600);
            return `Funded: new balance ${money(c.newBalance, a.currencyCode)}`;
          },
        ),
        actionForm(
          'Adjust',
          [
            field('Environment', adjEnv),
            field('Amount (negative to take)', adjAmount),
            field('Reason', adjReason),
          ],
          'Adjust',
          async () => {
            const c = await post<{ newBalance: number }>(`/api/accounts/${id}/adjust`, {
              environment: adjEnv.value,
              amount: adjAmount.value,
              reason: adjReason.value,
            });
            setTimeout(rerender, 600);
            return `Adjusted: new balance ${money(c.newBalance, a.currencyCode)}`;
          },
        ),
        actionForm(
          'Daily limits',
          [
            field('Orders per day (empty: none)', countLimit),
            field(`Amount per day, ${a.currencyCode} (empty: none)`, amountLimit),
          ],
          'Save limits',
          async () => {
            await post(`/api/accounts/${id}/limits`, {
              dailyCountLimit: countLimit.value === '' ? null : Number(countLimit.value),
              dailyAmountLimit: amountLimit.value === '' ? null : amountLimit.value,
            });
            return 'Limits saved.';
          },
        ),
        shapesForm(a.shapes, async (shapes) => {
          await post(`/api/accounts/${id}/shapes`, { shapes });
        }),
      ),
      table(
        'Credentials',
        ['client_id', 'Environment', 'Scopes', 'Created (UTC)', 'State'],
        a.credentials.map((c) => [
          h('code', {}, c.clientId),
          c.environment,
          c.scopes.join(' '),
          c.createdAt,
          c.revoked
            ? h('span', { class: 'badge revoked' }, 'revoked')
            : h(
                'button',
                {
                  type: 'button',
                  class: 'small danger',
                  'aria-label': `Revoke ${c.clientId}`,
                  onclick: async () => {
                    if (!(await confirmDialog(`Revoke ${c.clientId}?`, 'Revoke'))) return;
                    await post(`/api/credentials/${encodeURIComponent(c.clientId)}/revoke`);
                    rerender();
                  },
                },
                'Revoke',
              ),
        ]),
      ),
      table(
        'Dashboard users',
        ['E-mail', 'Password set', 'Invited (UTC)'],
        r.users.map((u) => [u.email, u.active ? 'yes' : 'not yet', u.createdAt]),
      ),
    );
  },
};

const transactions: PageDef = {
  path: '/transactions',
  title: 'Transactions',
  async render(body, route) {
    const env = envOf(route);
    const page = Number(route.query.get('page') ?? '1') || 1;
    const product = route.query.get('product') ?? 'all';
    const r = await get<{
      items: {
        product: string;
        transactionId: number;
        accountId: number;
        status: string;
        description: string;
        cost: number;
        currencyCode: string;
        createdAt: string;
      }[];
      hasMore: boolean;
    }>('/api/transactions', { environment: env, product, page, size: 25 });
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

const reports: PageDef = {
  path: '/reports',
  title: 'Orders and revenue',
  async render(body, route) {
    const env = envOf(route);
    const [chart, audit] = await Promise.all([
      get<{
        reportingCurrency: string;
        days: string[];
        series: { day: string; product: string; orders: number; revenue: number }[];
        byCurrency: { day: string; product: string; currencyCode: string; orders: number; revenue: number }[];
        rates: { currencyCode: string; unitsPerUsd: number; asOf: string }[];
      }>('/api/chart', { environment: env }),
      get<{ discrepancies: unknown[]; orders: unknown[]; checkedAt: string }>('/api/ledger-audit'),
    ]);
    const envSel = environmentSelect(env);
    envSel.addEventListener('change', () => go('/reports', { environment: envSel.value }));
    const perDay = (p: string, value: (s: (typeof chart.series)[number]) => number) =>
      chart.days.map((d) =>
        chart.series.filter((s) => s.day === d && s.product === p).reduce((n, s) => n + value(s), 0),
      );
    const name = (p: string) => (p === 'giftcards' ? 'Gift cards' : 'Top-ups');
    const orders: Series[] = ['giftcards', 'topups'].map((p) => ({
      name: `${name(p)} orders`,
      values: perDay(p, (s) => s.orders),
    }));
    const usd = chart.reportingCurrency;
    const revenue: Series[] = ['giftcards', 'topups'].map((p) => ({
      name: `${name(p)} (${usd})`,
      // cents: the sum of a day's amounts is exact in whole cents
      values: perDay(p, (s) => Math.round(s.revenue * 100)).map((cents) => cents / 100),
    }));
    const totals = new Map<string, number>();
    for (const s of chart.byCurrency)
      totals.set(
        `${s.product} ${s.currencyCode}`,
        (totals.get(`${s.product} ${s.currencyCode}`) ?? 0) + s.revenue,
      );
    body.append(
      field('Environment', envSel),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'orders-title' },
        h('h2', { id: 'orders-title' }, `Orders per day per product (${env})`),
        barChart('Orders per day', chart.days, orders),
        legend(orders),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'revenue-title' },
        h('h2', { id: 'revenue-title' }, `Revenue per day per product in ${usd} (${env})`),
        h(
          'p',
          { 'data-testid': 'revenue-note' },
          `Each order's amount, in its account's currency, is converted to ${usd} at the FX table's mid `,
          'rate (without the margin), then summed per day and rounded to cents.',
        ),
        barChart('Revenue per day', chart.days, revenue, ` ${usd}`),
        legend(revenue),
        table(
          `FX rates used (units per ${usd})`,
          ['Currency', `Units per ${usd}`, 'As of (UTC)', '30-day revenue in that currency'],
          chart.rates.map((r) => [
            r.currencyCode,
            String(r.unitsPerUsd),
            r.asOf,
            ['giftcards', 'topups']
              .filter((p) => totals.has(`${p} ${r.currencyCode}`))
              .map((p) => `${name(p)} ${money(totals.get(`${p} ${r.currencyCode}`) ?? 0, r.currencyCode)}`)
              .join(', '),
          ]),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'audit-title' },
        h('h2', { id: 'audit-title' }, 'Ledger audit'),
        audit.discrepancies.length === 0 && audit.orders.length === 0
          ? status(
              `Every balance equals the sum of its entries, and every order and top-up its entries (checked ${audit.checkedAt} UTC).`,
            )
          : status(
              `${audit.discrepancies.length} balance(s) differ from their entries: ${JSON.stringify(audit.discrepancies)}; ` +
                `${audit.orders.length} order(s) differ from their entries: ${JSON.stringify(audit.orders)}`,
              'error',
            ),
      ),
    );
  },
};

const catalogue: PageDef = {
  path: '/catalogue',
  title: 'Catalogue and stock',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const page = Number(route.query.get('page') ?? '1') || 1;
    const [products, stock, fx, upstreams] = await Promise.all([
      get<{
        items: { productId: number; productName: string; countryCode: string; status: string }[];
        total: number;
      }>('/api/products', { search, page, size: 25 }),
      get<{
        items: {
          productId: number;
          productName: string;
          faceValue: number;
          currencyCode: string;
          available: number;
          sold: number;
          expired: number;
          preOrdered: number;
          provider: string;
        }[];
        at: string;
      }>('/api/stock'),
      get<{ marginPercent: number; rates: { currencyCode: string; unitsPerUsd: number; asOf: string }[] }>(
        '/api/fx',
      ),
      get<{
        items: {
          product: string;
          url: string;
          clientId: string;
          marginPercent: number;
          lastSyncAt: string | null;
          health: { lastError: string | null; lastSuccessAt: string | null; insufficientBalance: boolean };
          balance: { balance: number; currencyCode: string } | null;
          balanceError: string | null;
        }[];
      }>('/api/upstreams'),
    ]);
    const fxCode = h('input', { name: 'currencyCode', required: true, maxlength: 3 });
    const fxUnits = h('input', { name: 'unitsPerUsd', required: true, inputmode: 'decimal' });
    const fxSection = h(
      'div',
      { class: 'grid2' },
      h(
        'details',
        { class: 'card' },
        h('summary', {}, `FX table: ${fx.rates.length} currencies, margin ${fx.marginPercent} %`),
        table(
          'Units of each currency per USD',
          ['Currency', 'Units per USD', 'As of (UTC)'],
          fx.rates.map((r) => [r.currencyCode, String(r.unitsPerUsd), r.asOf]),
        ),
      ),
      actionForm(
        'Set an FX rate',
        [field('Currency (ISO 4217)', fxCode), field('Units per USD', fxUnits)],
        'Save rate',
        async () => {
          const saved = await post<{ currencyCode: string; unitsPerUsd: number }>(
            `/api/fx/${encodeURIComponent(fxCode.value.toUpperCase())}`,
            { unitsPerUsd: fxUnits.value },
          );
          setTimeout(rerender, 600);
          return `${saved.currencyCode}: ${saved.unitsPerUsd} per USD`;
        },
      ),
    );
    const form = searchForm('Search products', 'Product name or id', search, (text) =>
      go('/catalogue', { search: text }),
    );
    body.append(
      table(
        'Upstreams (live fulfilment)',
        ['Product', 'URL', 'Client id', 'Margin', 'Last sync (UTC)', 'Its balance', 'Health'],
        upstreams.items.map((u) => [
          u.product,
          u.url,
          u.clientId,
          `${u.marginPercent} %`,
          u.lastSyncAt ?? 'never',
          u.balance ? money(u.balance.balance, u.balance.currencyCode) : `unknown: ${u.balanceError ?? ''}`,
          u.health.insufficientBalance
            ? 'out of funds there'
            : u.health.lastError
              ? `last error: ${u.health.lastError}`
              : 'ok',
        ]),
      ),
      table(
        `Code stock (at ${stock.at} UTC)`,
        ['Product', 'Face value', 'Available', 'Sold', 'Expired', 'Pre-ordered', 'Provider'],
        stock.items.map((s) => [
          `${s.productId} ${s.productName}`,
          money(s.faceValue, s.currencyCode),
          String(s.available),
          String(s.sold),
          String(s.expired),
          String(s.preOrdered),
          s.provider,
        ]),
      ),
      fxSection,
      form,
      table(
        `Gift card products (${products.total} found), page ${page}`,
        ['Id', 'Name', 'Country', 'Status', 'Change'],
        products.items.map((p) => [
          String(p.productId),
          p.productName,
          p.countryCode,
          p.status,
          h(
            'button',
            {
              type: 'button',
              class: 'small',
              'aria-label': `${p.status === 'ACTIVE' ? 'Deactivate' : 'Activate'} product ${p.productId}`,
              onclick: async () => {
                await post(`/api/products/${p.productId}/status`, {
                  status: p.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE',
                });
                rerender();
              },
            },
            p.status === 'ACTIVE' ? 'Deactivate' : 'Activate',
          ),
        ]),
      ),
      pager(page, page * 25 < products.total, (p) => go('/catalogue', { search, page: String(p) })),
    );
  },
};

const topupOperators: PageDef = {
  path: '/operators',
  title: 'Top-up operators',
  async render(body, route) {
    const search = route.query.get('search') ?? '';
    const page = Number(route.query.get('page') ?? '1') || 1;
    const r = await get<{
      items: { operatorId: number; name: string; countryCode: string; status: 'ACTIVE' | 'INACTIVE' }[];
      total: number;
    }>('/api/topup-operators', { search, page, size: 25 });
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
                  await post(`/api/topup-operators/${o.operatorId}/status`, { status: next });
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

const auditLog: PageDef = {
  path: '/audit',
  title: 'Audit log',
  async render(body, route) {
    const page = Number(route.query.get('page') ?? '1') || 1;
    const r = await get<{
      items: {
        auditId: number;
        actor: string;
        action: string;
        target: string | null;
        details: unknown;
        ip: string | null;
        at: string;
      }[];
    }>('/api/audit', { page, size: 50 });
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

interface OutboxItem {
  messageId: number;
  kind: string;
  channel: 'email' | 'sms';
  to: string;
  environment: string | null;
  transactionId: number | null;
  status: string;
  statusText: string;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
}

/**
 * One message as its recipient reads it: the text part (or the SMS) as text, the HTML part as its
 * escaped source under a disclosure. Not an iframe: this page's Content-Security-Policy forbids inline
 * style, which a srcdoc frame inherits (the e-mail's styles would be dropped anyway), and a frame of
 * the rendered HTML would need the policy loosened for a preview; textContent escapes everything.
 */
function outboxMessage(m: OutboxItem): HTMLElement {
  const head = h(
    'dl',
    { class: 'message-head' },
    h('dt', {}, 'To'),
    h('dd', {}, `${m.to} (${m.channel})`),
    h('dt', {}, 'Status'),
    h('dd', { class: m.status === 'failed' || m.status === 'unsent' ? 'bad' : '' }, m.statusText),
    h('dt', {}, 'Queued'),
    h('dd', {}, `${m.createdAt}${m.sentAt ? `, sent ${m.sentAt}` : ''}`),
    ...(m.transactionId
      ? [h('dt', {}, 'Order'), h('dd', {}, `${m.environment} gift card ${m.transactionId}`)]
      : []),
  );
  const body = h(
    'pre',
    { class: 'message-text' },
    m.text ?? '(no longer renderable: what it was about is gone)',
  );
  const html = m.html
    ? h('details', {}, h('summary', {}, 'HTML part (source)'), h('pre', { class: 'message-html' }, m.html))
    : '';
  return h(
    'article',
    { class: 'message', 'aria-label': `Message ${m.messageId}` },
    h('h2', {}, m.subject ?? (m.channel === 'sms' ? `SMS ${m.messageId}` : `E-mail ${m.messageId}`)),
    head,
    body,
    html,
  );
}

const outbox: PageDef = {
  path: '/outbox',
  title: 'Outbox',
  async render(body, route) {
    const before = route.query.get('before');
    const r = await get<{ items: OutboxItem[]; next: number | null }>('/api/outbox', {
      size: 20,
      ...(before ? { before } : {}),
    });
    body.append(
      h(
        'p',
        {},
        'Every e-mail and text message, newest first, as its recipient sees it (links and one-time codes masked).',
      ),
      ...(r.items.length === 0 ? [status('Nothing sent yet.')] : r.items.map(outboxMessage)),
      ...(r.next ? [h('a', { href: `#/outbox?before=${r.next}`, class: 'button' }, 'Older messages')] : []),
    );
  },
};

void start('console', [
  accounts,
  account,
  transactions,
  reports,
  catalogue,
  topupOperators,
  auditLog,
  outbox,
  securityPage,
]);

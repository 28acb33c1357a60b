import { get } from '../../ui/api.ts';
import { barChart, legend, type Series } from '../../ui/chart.ts';
import { field, h, money, status, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { environmentSelect, envOf } from '../../ui/widgets.ts';
import type { Chart, LedgerAudit } from '../console-schemas.ts';

/**
 * Orders and revenue (in USD) per day per product over 30 days, the FX rates used, and the ledger
 * audit (every balance against its entries, every order against its entries).
 */
export const reportsPage: PageDef = {
  path: '/reports',
  title: 'Orders and revenue',
  async render(body, route) {
    const env = envOf(route);
    const [chart, audit] = await Promise.all([
      get<typeof Chart>('/api/chart', { environment: env }),
      get<typeof LedgerAudit>('/api/ledger-audit'),
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

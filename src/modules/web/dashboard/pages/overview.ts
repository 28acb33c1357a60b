import { get } from '../../ui/api.ts';
import { barChart, legend } from '../../ui/chart.ts';
import { h, money, table } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';
import { envOf } from '../../ui/widgets.ts';
import type { Overview } from '../dashboard-schemas.ts';
import { TX_HEAD, transactionRows } from './transaction-rows.ts';

/** Both balances, spend per day over 30 days, and the latest transactions of one environment. */
export const overviewPage: PageDef = {
  path: '/overview',
  title: 'Overview',
  async render(body, route) {
    const env = envOf(route);
    const o = await get<typeof Overview>('/api/overview', { environment: env });
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
            // the live balance is funded by bank transfer (add-funds.ts)
            e === 'live' ? h('p', {}, h('a', { href: '#/add-funds?environment=live' }, 'Add funds')) : null,
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

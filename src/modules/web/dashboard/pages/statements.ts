import type { Statement } from '../../../funding/funding-schemas.ts';
import { get, url } from '../../ui/api.ts';
import { field, h, table } from '../../ui/dom.ts';
import { go, type PageDef } from '../../ui/shell.ts';
import { envOf } from '../../ui/widgets.ts';

/**
 * The monthly statement of a balance (the environment of the header): opening balance, every ledger
 * entry of the month (UTC), money in and out, closing balance; printable, and as CSV. A FUNDING entry
 * links to its receipt.
 */
const thisMonth = () => new Date().toISOString().slice(0, 7);

export const statementsPage: PageDef = {
  path: '/statements',
  title: 'Statements',
  async render(body, route) {
    const environment = envOf(route);
    const asked = route.query.get('month') ?? '';
    const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(asked) ? asked : thisMonth();
    const picker = h('input', { name: 'month', type: 'month', value: month, required: true });
    const form = h(
      'form',
      { class: 'filters no-print', 'aria-label': 'Statement month' },
      field('Month (UTC)', picker),
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      go('/statements', { environment, month: picker.value });
    });
    const s = await get<typeof Statement>('/api/statement', { environment, month });
    const money = (amount: string) => `${amount} ${s.currencyCode}`;
    body.append(
      form,
      h(
        'p',
        { class: 'no-print' },
        h(
          'a',
          {
            href: url('/api/statement.csv', { environment, month }),
            download: `statement-${month}-${environment}.csv`,
          },
          'Download CSV',
        ),
        ' · ',
        h('button', { type: 'button', onclick: () => window.print() }, 'Print'),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'statement-title' },
        h('h2', { id: 'statement-title' }, `Statement ${s.month} · ${s.accountName} · ${s.environment}`),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Account'),
          h('dd', {}, `${s.accountName} (account ${s.accountId}), ${s.currencyCode}`),
          h('dt', {}, 'Period (UTC)'),
          h('dd', {}, `${s.from} to ${s.to}`),
          h('dt', {}, 'Opening balance'),
          h('dd', { 'data-testid': 'opening' }, money(s.openingBalance)),
          h('dt', {}, 'Money in'),
          h('dd', {}, money(s.totalIn)),
          h('dt', {}, 'Money out'),
          h('dd', {}, money(s.totalOut)),
          h('dt', {}, 'Closing balance'),
          h('dd', { 'data-testid': 'closing' }, money(s.closingBalance)),
        ),
        s.truncated
          ? h(
              'p',
              { role: 'status' },
              `The month has ${s.entryCount} entries: the first ${s.entries.length} are shown, the CSV has them all.`,
            )
          : null,
      ),
      s.entryCount === 0
        ? h(
            'p',
            { class: 'card' },
            `No ledger entry in ${s.month}: the balance stayed at ${money(s.openingBalance)}.`,
          )
        : table(
            `Ledger entries of ${s.month}, in the order they were posted`,
            ['Entry', 'When (UTC)', 'Kind', 'Amount', 'Balance after', 'Reason'],
            s.entries.map((e) => [
              e.kind === 'FUNDING'
                ? h(
                    'a',
                    { href: `#/receipt?entry=${e.entryId}&environment=${environment}` },
                    `Receipt ${e.entryId}`,
                  )
                : String(e.entryId),
              e.createdAt,
              e.kind,
              money(e.amount),
              money(e.balanceAfter),
              e.reason ?? (e.transactionId ? `${e.product} ${e.transactionId}` : '—'),
            ]),
          ),
    );
  },
};

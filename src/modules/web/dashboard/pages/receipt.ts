import type { Receipt } from '../../../funding/funding-schemas.ts';
import { get } from '../../ui/api.ts';
import { h } from '../../ui/dom.ts';
import type { PageDef } from '../../ui/shell.ts';

/** The printable receipt of one funding of the account (a confirmed transfer or the operator's). */
export const receiptPage: PageDef = {
  path: '/receipt',
  title: 'Receipt',
  hidden: true,
  async render(body, route) {
    const entry = Number(route.query.get('entry'));
    if (!Number.isInteger(entry) || entry < 1) {
      body.append(h('p', { role: 'alert' }, 'No receipt named: open one from Add funds or a statement.'));
      return;
    }
    const r = await get<typeof Receipt>(`/api/receipts/${entry}`);
    const money = (amount: string) => `${amount} ${r.currencyCode}`;
    body.append(
      h('p', { class: 'no-print' }, h('button', { type: 'button', onclick: () => window.print() }, 'Print')),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'receipt-title' },
        h('h2', { id: 'receipt-title' }, `Funding receipt ${r.entryId}`),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Account'),
          h('dd', {}, `${r.accountName} (account ${r.accountId})`),
          h('dt', {}, 'Balance'),
          h('dd', {}, r.environment),
          h('dt', {}, 'Credited (UTC)'),
          h('dd', {}, r.createdAt),
          h('dt', {}, 'Amount'),
          h('dd', { 'data-testid': 'receipt-amount' }, money(r.amount)),
          h('dt', {}, 'Balance after'),
          h('dd', {}, money(r.balanceAfter)),
          h('dt', {}, 'Reference'),
          h('dd', {}, r.reference),
          r.transfer ? h('dt', {}, 'Bank transfer') : null,
          r.transfer
            ? h('dd', {}, `transfer ${r.transfer.transferId}, sent on ${r.transfer.transferDate}`)
            : null,
          r.transfer?.payerReference ? h('dt', {}, 'Your reference') : null,
          r.transfer?.payerReference ? h('dd', {}, r.transfer.payerReference) : null,
          h('dt', {}, 'Description'),
          h('dd', {}, r.reason ?? 'funding'),
        ),
        h('p', { class: 'muted' }, `Ledger entry ${r.entryId}: the balance's own record of this funding.`),
      ),
    );
  },
};

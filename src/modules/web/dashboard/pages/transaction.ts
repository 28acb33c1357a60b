import type { TransactionDetail } from '../../transactions/transaction-schemas.ts';
import { explain, get } from '../../ui/api.ts';
import { h, status, table } from '../../ui/dom.ts';
import {
  backToTransactions,
  type Detail,
  printableReceipt,
  transactionPageOf,
} from '../../ui/transaction-receipt.ts';
import type { Deliveries } from '../dashboard-schemas.ts';
import { deliveryCells, deliveryLink } from './delivery.ts';

/**
 * One transaction's own page (`#/transaction?environment=…&product=giftcards|topups&id=…`, linked
 * from every transactions table): what it cost and why, the FX, the recipient, the API request that
 * created it, the ledger entries it made and, for a gift card order, its deliveries (Resend is the
 * delivery page's). Printed, it is a receipt (styles.css `@media print`); codes are never on it.
 */
export const transactionPage = transactionPageOf(async (body, { env, product, id }) => {
  const back = backToTransactions(env);
  if (!id) {
    body.append(back, h('p', {}, 'Choose a transaction in the transactions table.'));
    return;
  }
  const d = await get<typeof TransactionDetail>(`/api/transactions/${product}/${id}`, { environment: env });
  body.append(back, ...printableReceipt(d));
  if (d.product === 'giftcards') body.append(await deliveries(d, env));
});

/** The order's messages to its recipient; a user without the permission sees why instead. */
async function deliveries(d: Detail, env: string): Promise<HTMLElement> {
  const section = h('section', { 'aria-labelledby': 'deliveries-title', class: 'deliveries' });
  section.append(h('h2', { id: 'deliveries-title' }, 'Deliveries to the recipient'));
  try {
    const list = await get<typeof Deliveries>(`/api/giftcards/transactions/${d.transactionId}/deliveries`, {
      environment: env,
    });
    section.append(
      table(
        'Messages',
        ['To', 'Status', 'Attempts', 'Last error', 'Queued (UTC)', 'Sent (UTC)'],
        list.deliveries.map(deliveryCells),
      ),
      d.status === 'SUCCESSFUL'
        ? h(
            'p',
            { class: 'no-print' },
            deliveryLink(env, d.transactionId),
            ': the reveals of the code and Resend.',
          )
        : '',
    );
  } catch (error) {
    section.append(status(explain(error), 'error'));
  }
  return section;
}

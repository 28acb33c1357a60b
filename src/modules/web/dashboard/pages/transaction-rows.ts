import type { Static } from 'typebox';
import { explain, post } from '../../ui/api.ts';
import { h, money, replace, status } from '../../ui/dom.ts';
import { transactionLink } from '../../ui/transaction-receipt.ts';
import type { Env } from '../../ui/widgets.ts';
import type { RevealedCodes, TransactionLine } from '../dashboard-schemas.ts';
import { deliveryLink } from './delivery.ts';

/**
 * The rows of a transactions table (the overview's latest, the transactions page): either product,
 * and on the transactions page a successful gift card order's Show codes and Delivery.
 */
const PRODUCT_NAMES = { giftcards: 'Gift card', topups: 'Top-up' };

export function transactionRows(items: Static<typeof TransactionLine>[], env: Env, withCodes: boolean) {
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
                  const r = await post<typeof RevealedCodes>(
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
      transactionLink(env, t.product, t.transactionId),
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

export const TX_HEAD = ['Product', 'Id', 'Status', 'What', 'customIdentifier', 'Cost', 'When (UTC)'];

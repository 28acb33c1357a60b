import type { Static } from 'typebox';
import type { TransactionDetail } from '../transactions/transaction-schemas.ts';
import { type Child, h, money, table } from './dom.ts';
import type { Route } from './route.ts';
import type { PageDef } from './shell.ts';
import { type Env, envOf, productOf } from './widgets.ts';

/**
 * One transaction as both apps show it (the dashboard's transaction page, the console's): the
 * receipt (what it was, the charges, the FX, the balance around it) and the ledger entries it made.
 * styles.css prints it as a receipt (`@media print`: no navigation, no buttons).
 */
export type Detail = Static<typeof TransactionDetail>;

export const PRODUCT_NAMES = { giftcards: 'Gift card order', topups: 'Top-up' };

/** The link from a transactions table's row to the transaction's page (`extra`: the console's account). */
export const transactionLink = (env: string, product: 'giftcards' | 'topups', id: number, extra = '') =>
  h(
    'a',
    {
      href: `#/transaction?environment=${env}&product=${product}&id=${id}${extra}`,
      'aria-label': `${PRODUCT_NAMES[product]} ${id}`,
    },
    String(id),
  );

/** A term and its value, or nothing when there is no value. */
const row = (term: string, value: Node | string | null | undefined) =>
  value === null || value === undefined || value === '' ? [] : [h('dt', {}, term), h('dd', {}, value)];

export function receipt(d: Detail): HTMLElement {
  const m = (n: number) => money(n, d.currencyCode);
  const g = d.giftcard;
  const t = d.topup;
  return h(
    'article',
    { class: 'receipt', 'aria-labelledby': 'receipt-title' },
    h(
      'h2',
      { id: 'receipt-title' },
      `${PRODUCT_NAMES[d.product]} ${d.transactionId} `,
      h('span', { class: `badge ${d.status.toLowerCase()}` }, d.status),
    ),
    h(
      'dl',
      { class: 'facts' },
      row('Environment', d.environment),
      row('Created (UTC)', d.createdAt),
      row('What', d.description),
      row('customIdentifier', d.customIdentifier),
      row('API request id', d.requestId ? h('code', {}, d.requestId) : 'not in the request log any more'),
      g && row('Product', `${g.productName} (${g.brandName}, ${g.countryCode}), id ${g.productId}`),
      g && row('Cards', `${g.quantity} × ${money(g.unitPrice, d.fx.recipientCurrencyCode)}`),
      g?.preOrdered ? row('Pre-ordered', 'yes') : [],
      t && row('Operator', `${t.operatorName} (${t.countryCode}), id ${t.operatorId}`),
      t && row("Operator's transaction id", t.operatorTransactionId),
      t && row('Sender phone', t.senderPhone),
      row('Recipient e-mail', d.recipient.email),
      row('Recipient phone', d.recipient.phone),
    ),
    table(
      `Charges (${d.currencyCode})`,
      ['Item', 'Amount'],
      [
        ['Face value', m(d.subtotal)],
        ...(d.fee ? [['Fee', m(d.fee)]] : []),
        ...(d.smsFee ? [['SMS fee', m(d.smsFee)]] : []),
        ...(d.discount ? [['Discount', `− ${m(d.discount)}`]] : []),
        [h('strong', {}, 'Total charged'), h('strong', {}, m(d.cost))],
      ],
    ),
    h(
      'dl',
      { class: 'facts' },
      row('Exchange', `1 ${d.fx.senderCurrencyCode} = ${d.fx.rate} ${d.fx.recipientCurrencyCode}`),
      row('Sent', money(d.fx.senderAmount, d.fx.senderCurrencyCode)),
      row(
        d.product === 'topups' ? 'Delivered' : 'Received',
        money(d.fx.recipientAmount, d.fx.recipientCurrencyCode),
      ),
      row('Balance before', m(d.balance.before)),
      row('Balance after', m(d.balance.after)),
    ),
  );
}

export function ledgerTable(d: Detail): HTMLElement {
  return table(
    'Ledger entries of this transaction',
    ['Entry', 'Kind', 'Amount', 'Balance after', 'Reason', 'When (UTC)'],
    d.ledger.map((e) => [
      String(e.entryId),
      e.kind,
      money(e.amount, e.currencyCode),
      money(e.balanceAfter, e.currencyCode),
      e.reason ?? '—',
      e.createdAt,
    ]),
  );
}

/** The way back to the transactions table, and what else the page links to (none of it printed). */
export function backToTransactions(env: string, ...more: Child[]): HTMLElement {
  return h(
    'p',
    { class: 'no-print' },
    h('a', { href: `#/transactions?environment=${env}` }, '← Transactions'),
    ...more,
  );
}

/** The receipt, its Print button (not printed: styles.css `@media print`) and the ledger entries. */
export function printableReceipt(d: Detail): HTMLElement[] {
  const print = h(
    'button',
    { type: 'button', class: 'no-print', onclick: () => window.print() },
    'Print receipt',
  );
  return [receipt(d), print, ledgerTable(d)];
}

/** What a transaction page's address names: `?environment=…&product=…&id=…` (id 0 when none). */
export interface NamedTransaction {
  env: Env;
  product: 'giftcards' | 'topups';
  id: number;
}

/** The hidden `#/transaction` page as both apps declare it; `show` draws what the address names. */
export const transactionPageOf = (
  show: (body: HTMLElement, named: NamedTransaction, route: Route) => Promise<void>,
): PageDef => ({
  path: '/transaction',
  title: 'Transaction',
  hidden: true,
  render: (body, route) =>
    show(body, { env: envOf(route), product: productOf(route), id: Number(route.query.get('id')) }, route),
});

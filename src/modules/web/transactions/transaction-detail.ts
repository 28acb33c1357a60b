import type { Environment } from '../../../db/schema.ts';
import { dec } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { Principal } from '../../auth/index.ts';
import type { GiftcardServices } from '../../giftcards/index.ts';
import type { TopupServices } from '../../topups/index.ts';
import type { TransactionRepository } from './transaction-repository.ts';

/**
 * One transaction of the signed-in user's account as its page shows it (both products, one shape):
 * read through the products' reports (another account's transaction is not found, as on the API),
 * the amounts as the order was priced (gift cards: order-pricing.ts; top-ups: the requested amount,
 * its discount and cost), the FX between the account's and the recipient's currency worked out with
 * exact decimals, and the ledger entries that name it. Codes are never part of it.
 *
 * @example
 * const detail = createTransactionDetail({ giftcards, topups, repository });
 * await detail.get(7, 'sandbox', 'giftcards', 42);
 */
export function createTransactionDetail(deps: {
  giftcards: GiftcardServices;
  topups: TopupServices;
  repository: TransactionRepository;
}) {
  const principal = (accountId: number, environment: Environment): Principal => ({
    accountId,
    environment,
    clientId: 'dashboard',
    scopes: [],
  });
  // recipient units per sender unit, to 6 significant places (what a receipt shows)
  const rateOf = (recipient: number, sender: string) =>
    dec(sender).isZero() ? 0 : dec(recipient).div(sender).toSignificantDigits(6).toNumber();

  async function giftcard(accountId: number, environment: Environment, id: number) {
    const t = await deps.giftcards.reports.get(principal(accountId, environment), id);
    // qty × S, the sender subtotal: amount = qty × S + totalFee − discount (order-pricing.ts)
    const subtotal = dec(t.amount).minus(t.totalFee).plus(t.discount);
    return {
      product: 'giftcards' as const,
      transactionId: t.transactionId,
      environment,
      status: t.status,
      createdAt: t.transactionCreatedTime,
      customIdentifier: t.customIdentifier,
      description: `${t.product.quantity} × ${t.product.productName}`,
      currencyCode: t.currencyCode,
      subtotal: subtotal.toNumber(),
      fee: t.fee,
      smsFee: t.smsFee,
      totalFee: t.totalFee,
      discount: t.discount,
      cost: t.amount,
      fx: {
        senderCurrencyCode: t.currencyCode,
        senderAmount: subtotal.toNumber(),
        recipientCurrencyCode: t.product.currencyCode,
        recipientAmount: t.product.totalPrice,
        rate: rateOf(t.product.totalPrice, subtotal.toFixed()),
      },
      recipient: {
        email: t.recipientEmail,
        phone: t.recipientPhone === null ? null : `+${t.recipientPhone}`,
      },
      giftcard: {
        productId: t.product.productId,
        productName: t.product.productName,
        brandName: t.product.brand.brandName,
        countryCode: t.product.countryCode,
        quantity: t.product.quantity,
        unitPrice: t.product.unitPrice,
        preOrdered: t.preOrdered,
      },
      topup: null,
      balance: { before: t.balanceInfo.oldBalance, after: t.balanceInfo.newBalance },
    };
  }

  async function topup(accountId: number, environment: Environment, id: number) {
    const r = await deps.topups.reports.get(principal(accountId, environment), id);
    const requested = Number(r.requested_amount);
    return {
      product: 'topups' as const,
      transactionId: Number(r.id),
      environment,
      status: r.status,
      createdAt: formatDateTime(r.created_at),
      customIdentifier: r.custom_identifier,
      description: `${requested} ${r.requested_currency_code} to ${r.operator_name}`,
      currencyCode: r.requested_currency_code,
      subtotal: requested,
      fee: 0,
      smsFee: 0,
      totalFee: 0,
      discount: Number(r.discount),
      cost: Number(r.cost),
      fx: {
        senderCurrencyCode: r.requested_currency_code,
        senderAmount: requested,
        recipientCurrencyCode: r.delivered_currency_code,
        recipientAmount: Number(r.delivered_amount),
        rate: rateOf(Number(r.delivered_amount), String(r.requested_amount)),
      },
      recipient: { email: r.recipient_email, phone: r.recipient_phone },
      giftcard: null,
      topup: {
        operatorId: r.operator_id,
        operatorName: r.operator_name,
        countryCode: r.country_code,
        operatorTransactionId: r.operator_transaction_id,
        senderPhone: r.sender_phone,
      },
      balance: { before: Number(r.old_balance), after: Number(r.new_balance) },
    };
  }

  return {
    async get(accountId: number, environment: Environment, product: 'giftcards' | 'topups', id: number) {
      const detail =
        product === 'giftcards'
          ? await giftcard(accountId, environment, id)
          : await topup(accountId, environment, id);
      const entries = await deps.repository.ledgerEntriesOf(accountId, environment, product, id);
      return {
        ...detail,
        ledger: entries.map((e) => ({
          entryId: Number(e.id),
          kind: e.kind,
          amount: Number(e.amount),
          balanceAfter: Number(e.balance_after),
          currencyCode: e.currency_code,
          reason: e.reason,
          createdAt: formatDateTime(e.created_at),
        })),
      };
    },
  };
}

export type TransactionDetailService = ReturnType<typeof createTransactionDetail>;

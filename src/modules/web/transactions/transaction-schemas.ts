import { Type } from 'typebox';
import { Environment } from '../web-schemas.ts';

/**
 * One transaction's own page (transaction-routes.ts): either product, what it cost and why (fees,
 * SMS fee, discount, the FX between the account's currency and the recipient's), who received it,
 * the API request that created it and the ledger entries it made. Never its codes.
 */
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Product = Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]);

export const TransactionDetailParams = Type.Object({
  product: Product,
  transactionId: Type.Integer({ minimum: 1 }),
});

export const TransactionLedgerEntry = Type.Object({
  entryId: Type.Integer(),
  kind: Type.String({ description: 'ORDER_DEBIT, REFUND, …' }),
  amount: Type.Number({ description: 'signed: a debit is negative' }),
  balanceAfter: Type.Number(),
  currencyCode: Type.String(),
  reason: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const TransactionDetail = Type.Object({
  product: Product,
  transactionId: Type.Integer(),
  environment: Environment,
  status: Type.String(),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss (UTC)' }),
  customIdentifier: Nullable(Type.String()),
  description: Type.String(),
  currencyCode: Type.String({
    description: "the account's currency: every amount below but fx.recipientAmount",
  }),
  subtotal: Type.Number({ description: 'the face value in the account currency, before fees and discount' }),
  fee: Type.Number(),
  smsFee: Type.Number(),
  totalFee: Type.Number(),
  discount: Type.Number(),
  cost: Type.Number({ description: 'what was debited: subtotal + totalFee − discount' }),
  fx: Type.Object({
    senderCurrencyCode: Type.String(),
    senderAmount: Type.Number(),
    recipientCurrencyCode: Type.String(),
    recipientAmount: Type.Number(),
    rate: Type.Number({ description: 'recipient currency units per sender currency unit' }),
  }),
  recipient: Type.Object({ email: Nullable(Type.String()), phone: Nullable(Type.String()) }),
  giftcard: Type.Union([
    Type.Object({
      productId: Type.Integer(),
      productName: Type.String(),
      brandName: Type.String(),
      countryCode: Type.String(),
      quantity: Type.Integer(),
      unitPrice: Type.Number({ description: 'in the recipient currency' }),
      preOrdered: Type.Boolean(),
    }),
    Type.Null(),
  ]),
  topup: Type.Union([
    Type.Object({
      operatorId: Type.Integer(),
      operatorName: Type.String(),
      countryCode: Type.String(),
      operatorTransactionId: Nullable(Type.String()),
      senderPhone: Nullable(Type.String()),
    }),
    Type.Null(),
  ]),
  balance: Type.Object({ before: Type.Number(), after: Type.Number() }),
  requestId: Nullable(
    Type.String({
      description:
        'the X-Request-Id of the API request that created it (null once the request log has dropped it)',
    }),
  ),
  ledger: Type.Array(TransactionLedgerEntry),
});

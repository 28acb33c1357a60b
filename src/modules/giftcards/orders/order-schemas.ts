import { type Static, Type } from 'typebox';
import { SHAPES_NOTE } from '../../../http/account-shapes.ts';
import { Paged, pagingQuery } from '../../../http/paging.ts';
import { BalanceInfo, DateTimeText, OneOf, StringEnum } from '../../../http/schemas.ts';

/**
 * The schemas of `POST /orders`, the transaction reports and the redeem codes (giftcards.md
 * #14–#17): each drives the request's validation, the OpenAPI document and the handler's types. The
 * Transaction is field for field as giftcards.md names it (`receipientPhone` included). Optional
 * body fields may also be sent as null, as some clients do.
 */
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));

export const OrderBody = Type.Object({
  productId: Type.Integer({ minimum: 1 }),
  quantity: Type.Integer({
    minimum: 1,
    description: 'Cards to buy: from 1 to the server setting ORDER_MAX_QUANTITY (10 unless configured)',
  }),
  unitPrice: Type.Number({
    description:
      "Face value per card in the product's recipient currency: one of its fixed denominations, or within its range with at most 2 decimals",
  }),
  senderName: Type.String({ description: '1 to 200 characters once trimmed' }),
  customIdentifier: orNull(
    Type.String({
      minLength: 1,
      maxLength: 150,
      description: 'Your reference for the order; each value can be used once per account',
    }),
  ),
  preOrder: orNull(Type.Boolean()),
  productAdditionalRequirements: orNull(Type.Object({ userId: orNull(Type.String()) })),
  recipientEmail: orNull(Type.String()),
  recipientPhoneDetails: orNull(Type.Object({ countryCode: Type.String(), phoneNumber: Type.String() })),
});
export type OrderBody = Static<typeof OrderBody>;

export const Transaction = Type.Object({
  transactionId: Type.Integer(),
  amount: Type.Number(),
  discount: Type.Number(),
  currencyCode: Type.String(),
  fee: Type.Number(),
  customIdentifier: Type.Union([Type.String(), Type.Null()]),
  status: StringEnum(['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED']),
  product: Type.Object({
    productId: Type.Integer(),
    productName: Type.String(),
    countryCode: Type.String(),
    quantity: Type.Integer(),
    unitPrice: Type.Number(),
    totalPrice: Type.Number(),
    currencyCode: Type.String(),
    brand: Type.Object({ brandId: Type.Integer(), brandName: Type.String() }),
  }),
  smsFee: Type.Number(),
  totalFee: Type.Number(),
  receipientPhone: NullableNumber,
  recipientPhone: Type.Union([Type.String(), Type.Null()]),
  recipientEmail: Type.Union([Type.String(), Type.Null()]),
  transactionCreatedTime: DateTimeText,
  preOrdered: Type.Boolean(),
  balanceInfo: BalanceInfo,
});
/** The reports list in the account's shapes: a bare array (`documented`) or the paged wrapper (`service`). */
export const TransactionPage = Paged(Transaction);
export const TransactionArray = Type.Array(Transaction);
export const TransactionList = OneOf([TransactionArray, TransactionPage], { description: SHAPES_NOTE });

/** Documentation only: the cards route writes its JSON by hand so long digit strings stay exact. */
export const RedeemCodes = Type.Array(
  Type.Object({
    cardNumber: Type.Union([Type.Number(), Type.String()]),
    pinCode: Type.Union([Type.Number(), Type.String()]),
  }),
);

// ---- requests

export const TransactionParams = Type.Object({ transactionId: Type.String() });
export const ReportsQuery = Type.Object({
  ...pagingQuery(200),
  customIdentifier: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  // Compatibility (decisions §9): the further filters Reloadly's Java SDK sends.
  status: Type.Optional(Type.String()),
  productId: Type.Optional(Type.Integer()),
  productName: Type.Optional(Type.String()),
  brandId: Type.Optional(Type.Integer()),
  brandName: Type.Optional(Type.String()),
  recipientEmail: Type.Optional(Type.String()),
});

import { type Static, Type } from 'typebox';
import { pagingQuery } from '../../../http/paging.ts';
import { BalanceInfo, DateTimeText, StringEnum } from '../../../http/schemas.ts';

/**
 * The schemas of `POST /topups` and the transaction reports: each drives the request's validation,
 * the OpenAPI document and the handler's types. The Top-up transaction is field for field the spec's
 * table, with `balanceInfo` (decisions §5) and `links` (§4).
 */
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const PinDetail = Type.Object({
  serial: NullableString,
  info1: NullableString,
  info2: NullableString,
  info3: NullableString,
  value: NullableString,
  code: NullableString,
  ivr: NullableString,
  validity: NullableString,
});

export const Link = Type.Object({ href: Type.String(), rel: Type.String(), method: Type.String() });

export const TopupTransaction = Type.Object({
  transactionId: Type.Integer(),
  status: StringEnum(['PROCESSING', 'SUCCESSFUL', 'REFUNDED']),
  operatorTransactionId: NullableString,
  customIdentifier: NullableString,
  recipientPhone: NullableString,
  recipientEmail: Type.Optional(Type.String()),
  senderPhone: NullableString,
  countryCode: Type.String(),
  operatorId: Type.Integer(),
  operatorName: Type.String(),
  discount: Type.Number(),
  discountCurrencyCode: Type.String(),
  requestedAmount: Type.Number(),
  requestedAmountCurrencyCode: Type.String(),
  deliveredAmount: Type.Number(),
  deliveredAmountCurrencyCode: Type.String(),
  transactionDate: DateTimeText,
  balanceInfo: BalanceInfo,
  pinDetail: Type.Union([PinDetail, Type.Null()]),
  links: Type.Array(Link),
});

export const Phone = Type.Object({
  countryCode: Type.String({ minLength: 2, maxLength: 2 }),
  number: Type.String({ minLength: 1, maxLength: 40 }),
});

// `amount` is checked by parseAmount, so a non-number answers INVALID_AMOUNT, not INVALID_REQUEST.
export const TopupBody = Type.Object({
  operatorId: Type.Integer({ minimum: 0 }),
  amount: Type.Unknown({ description: 'number' }),
  useLocalAmount: Type.Optional(Type.Boolean()),
  customIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 150 })),
  recipientPhone: Type.Optional(Phone),
  recipientEmail: Type.Optional(Type.String({ maxLength: 254 })),
  senderPhone: Type.Optional(Phone),
});
export type TopupBody = Static<typeof TopupBody>;

export const ReportQuery = Type.Object({
  ...pagingQuery(100),
  countryCode: Type.Optional(Type.String({ maxLength: 3 })),
  customIdentifier: Type.Optional(Type.String({ maxLength: 150 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 0 })),
  operatorName: Type.Optional(Type.String({ maxLength: 200 })),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  startTime: Type.Optional(Type.String()),
  endTime: Type.Optional(Type.String()),
  sortBy: Type.Optional(
    Type.Union([
      Type.Literal('transactionDate'),
      Type.Literal('transactionId'),
      Type.Literal('requestedAmount'),
    ]),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

export const TransactionParams = Type.Object({ transactionId: Type.Integer({ minimum: 0 }) });

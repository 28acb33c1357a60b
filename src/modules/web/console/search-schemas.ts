import { Type } from 'typebox';
import { Environment } from '../web-schemas.ts';

/**
 * The console's transaction search (support work) and its CSV export: the filters take the
 * dashboard's query names (`status`, `customIdentifier`, `startDate`, `endDate`) plus `accountId`,
 * `transactionId` and `recipient`. Only typebox and schema files are imported (../README.md).
 */
const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'yyyy-MM-dd (UTC)' });
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED'] as const;
const Product = Type.Union([Type.Literal('all'), Type.Literal('giftcards'), Type.Literal('topups')]);

const Filters = {
  environment: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('sandbox')], {
      description:
        'live or sandbox; absent: the one with transactions (live when it has any, else sandbox; of the account when `accountId` is given). The answer names it',
    }),
  ),
  product: Type.Optional(Product),
  status: Type.Optional(Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s)))),
  accountId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  customIdentifier: Type.Optional(
    Type.String({ minLength: 1, maxLength: 150, description: 'exactly as the order gave it' }),
  ),
  transactionId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  recipient: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description:
        'an e-mail address (any case) or a phone number in international form (+, spaces, dashes and brackets ignored)',
    }),
  ),
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(Type.String({ ...DateText, description: 'yyyy-MM-dd (UTC), inclusive' })),
};

export const TransactionSearchCsvQuery = Type.Object(Filters);
export const TransactionSearchQuery = Type.Object({
  ...Filters,
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 25 })),
});

export const SearchedTransaction = Type.Object({
  product: Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]),
  transactionId: Type.Integer(),
  accountId: Type.Integer(),
  accountName: Type.String(),
  environment: Environment,
  status: Type.String(),
  description: Type.String(),
  customIdentifier: Type.Union([Type.String(), Type.Null()]),
  recipient: Type.Union([Type.String(), Type.Null()], {
    description: 'the e-mail address or the phone number (+ and its digits) the order was sent to',
  }),
  cost: Type.String({
    pattern: '^-?\\d+(\\.\\d+)?$',
    description: "what the account paid, exact, with at least its currency's decimals: 4.84",
  }),
  costText: Type.String({ description: "rounded to the currency's minor unit, as shown: 4.84 USD, 500 JPY" }),
  currencyCode: Type.String(),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss (UTC)' }),
});

export const TransactionSearchPage = Type.Object({
  environment: Environment,
  items: Type.Array(SearchedTransaction),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});

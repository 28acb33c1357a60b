import { Type } from 'typebox';
import {
  Account,
  AccountDetail,
  AccountShapes,
  Audit,
  BalanceChange,
  CreatedAccount,
} from '../../admin/admin-schemas.ts';
import { AuditQuery } from '../../audit/audit-schemas.ts';
import { UpstreamList } from '../../upstream/upstream-schemas.ts';
import { WebUser } from '../users/users-schemas.ts';
import { Environment } from '../web-schemas.ts';

/**
 * The console's JSON: one schema per endpoint for validation, answers, its OpenAPI document and
 * the pages' types (`pages/`). Only typebox and schema files are imported, those of other modules
 * included (past their index.ts), so the browser code can import its types (../README.md). The
 * admin API's shapes (accounts, balance changes, the ledger audit) are the console's too.
 */
export { Account, BalanceChange, CreatedAccount, UpstreamList };

const Amount = Type.Union([Type.Number(), Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })]);
const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 25 })),
};
const ProductName = Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]);
const ActiveOrNot = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]);

export const PagingQuery = Type.Object(Paging);
/** The audit log's filters (modules/audit) and a page of them. */
export const AuditListQuery = Type.Object({ ...AuditQuery.properties, ...Paging });
export const SearchQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })), ...Paging });
/** `{ status }` of an account, a gift card product or a top-up operator. */
export const StatusBody = Type.Object({ status: ActiveOrNot }, { additionalProperties: false });

export const AccountList = Type.Object({ items: Type.Array(Account) });
export const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Type.String({ pattern: '^[A-Za-z]{3}$' }),
    country: Type.String({ pattern: '^[A-Za-z]{2}$' }),
    environment: Environment,
    fund: Type.Optional(Amount),
  },
  { additionalProperties: false },
);
export const AccountPage = Type.Object({ account: AccountDetail, users: Type.Array(WebUser) });
/** Funding and adjusting (`/fund`, `/adjust`). */
export const BalanceBody = Type.Object(
  { environment: Environment, amount: Amount, reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export const LimitsBody = Type.Object(
  {
    dailyCountLimit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    dailyAmountLimit: Type.Union([Amount, Type.Null()]),
  },
  { additionalProperties: false },
);
export const ShapesBody = Type.Object({ shapes: AccountShapes }, { additionalProperties: false });

export const LedgerAudit = Type.Object({ ...Audit.properties, checkedAt: Type.String() });

const ProductLine = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  countryCode: Type.String(),
  status: Type.String(),
});
export const ProductPage = Type.Object({ items: Type.Array(ProductLine), total: Type.Integer() });
export const ProductParams = Type.Object({ productId: Type.Integer({ minimum: 1 }) });
export const ProductStatus = Type.Object({ productId: Type.Integer(), status: Type.String() });

const OperatorLine = Type.Object({
  operatorId: Type.Integer(),
  name: Type.String(),
  countryCode: Type.String(),
  status: ActiveOrNot,
});
export const OperatorPage = Type.Object({ items: Type.Array(OperatorLine), total: Type.Integer() });
export const OperatorParams = Type.Object({
  operatorId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

export const StockList = Type.Object({
  items: Type.Array(
    Type.Object({
      productId: Type.Integer(),
      productName: Type.String(),
      currencyCode: Type.String(),
      provider: Type.String(),
      faceValue: Type.Number(),
      available: Type.Integer(),
      sold: Type.Integer(),
      expired: Type.Integer(),
      preOrdered: Type.Integer(),
    }),
  ),
  at: Type.String(),
});

export const FxRate = Type.Object({
  currencyCode: Type.String(),
  unitsPerUsd: Type.Number(),
  asOf: Type.String(),
});
export const FxTable = Type.Object({ marginPercent: Type.Number(), rates: Type.Array(FxRate) });
export const CurrencyParams = Type.Object({ currencyCode: Type.String({ pattern: '^[A-Z]{3}$' }) });
export const FxRateBody = Type.Object(
  { unitsPerUsd: Type.String({ pattern: '^\\d+(\\.\\d+)?$' }) },
  { additionalProperties: false },
);

export const OutboxQuery = Type.Object({
  before: Type.Optional(Type.Integer({ minimum: 1, description: 'the `next` of the page before' })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});
export const OutboxMessage = Type.Object({
  messageId: Type.Integer(),
  kind: Type.String(),
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
  to: Type.String(),
  environment: Type.Union([Environment, Type.Null()]),
  transactionId: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String(),
  statusText: Type.String({
    description: 'what became of it, in words: "not sent: no SMTP server configured"',
  }),
  attempts: Type.Integer(),
  createdAt: Type.String(),
  sentAt: Type.Union([Type.String(), Type.Null()]),
  subject: Type.Union([Type.String(), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()], {
    description: 'the text part (the SMS), secrets masked',
  }),
  html: Type.Union([Type.String(), Type.Null()], { description: 'the HTML part, secrets masked' }),
});
export const OutboxPage = Type.Object({
  items: Type.Array(OutboxMessage),
  next: Type.Union([Type.Integer(), Type.Null()]),
});

export const Chart = Type.Object({
  environment: Environment,
  reportingCurrency: Type.String({ description: 'the currency of `series[].revenue`: USD' }),
  days: Type.Array(Type.String()),
  series: Type.Array(
    Type.Object({
      day: Type.String(),
      product: ProductName,
      orders: Type.Integer(),
      revenue: Type.Number({ description: 'in the reporting currency, rounded to cents' }),
    }),
  ),
  byCurrency: Type.Array(
    Type.Object({
      day: Type.String(),
      product: ProductName,
      currencyCode: Type.String(),
      orders: Type.Integer(),
      revenue: Type.Number({ description: "in the accounts' currency" }),
    }),
  ),
  rates: Type.Array(FxRate, { description: 'the FX rates (mid, no margin) used to convert' }),
});

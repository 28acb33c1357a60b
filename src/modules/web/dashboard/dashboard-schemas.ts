import { Type } from 'typebox';
import { AccountShapes } from '../../admin/admin-schemas.ts';
import { Deliveries } from '../../giftcards/delivery/delivery-schemas.ts';
import { Environment } from '../web-schemas.ts';

/**
 * The dashboard's JSON: one schema per endpoint for validation, answers, its OpenAPI document and
 * the pages' types (`pages/`). Only typebox and schema files are imported, those of other modules
 * included (past their index.ts), so the browser code can import its types (../README.md).
 */

/** A gift card order's messages and reveals: the gift card API's own answer, shown on the delivery page. */
export { Deliveries };

const BalanceLine = Type.Object({
  balance: Type.Number(),
  currencyCode: Type.String(),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});

export const TransactionLine = Type.Object({
  product: Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]),
  transactionId: Type.Integer(),
  status: Type.String(),
  description: Type.String(),
  customIdentifier: Type.Union([Type.String(), Type.Null()]),
  cost: Type.Number(),
  currencyCode: Type.String(),
  createdAt: Type.String(),
});

export const Overview = Type.Object({
  account: Type.Object({
    accountId: Type.Integer(),
    name: Type.String(),
    currencyCode: Type.String(),
    status: Type.String(),
  }),
  balances: Type.Object({ live: BalanceLine, sandbox: BalanceLine }),
  environment: Environment,
  spendPerDay: Type.Array(Type.Object({ day: Type.String(), spend: Type.Number() })),
  recent: Type.Array(TransactionLine),
});

export const Credential = Type.Object({
  clientId: Type.String(),
  environment: Environment,
  scopes: Type.Array(Type.String()),
  revoked: Type.Boolean(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
export const CredentialList = Type.Object({
  items: Type.Array(Credential),
  scopes: Type.Array(Type.String()),
});
export const CreateCredentialBody = Type.Object(
  {
    environment: Environment,
    scopes: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);
export const CreatedCredential = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown once' }),
  environment: Environment,
  scopes: Type.Array(Type.String()),
});

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'yyyy-MM-dd (UTC)' });
export const TransactionsQuery = Type.Object({
  environment: Environment,
  product: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('giftcards'), Type.Literal('topups')]),
  ),
  status: Type.Optional(
    Type.Union(['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED'].map((s) => Type.Literal(s))),
  ),
  customIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 150 })),
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(DateText),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
});
export const TransactionPage = Type.Object({
  items: Type.Array(TransactionLine),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});

export const TransactionParams = Type.Object({ transactionId: Type.Integer({ minimum: 1 }) });
export const RevealedCodes = Type.Object({
  transactionId: Type.Integer(),
  cards: Type.Array(Type.Object({ cardNumber: Type.String(), pinCode: Type.String() })),
});

export const LedgerQuery = Type.Object({
  environment: Environment,
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 25 })),
});
export const LedgerPage = Type.Object({
  items: Type.Array(
    Type.Object({
      entryId: Type.Integer(),
      kind: Type.String(),
      amount: Type.Number(),
      balanceAfter: Type.Number(),
      currencyCode: Type.String(),
      reason: Type.Union([Type.String(), Type.Null()]),
      product: Type.Union([Type.String(), Type.Null()]),
      transactionId: Type.Union([Type.Integer(), Type.Null()]),
      createdAt: Type.String(),
    }),
  ),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});

export const DocLinks = Type.Object({
  bases: Type.Array(Type.Object({ title: Type.String(), url: Type.String(), docs: Type.String() })),
  errors: Type.String(),
  openapi: Type.String(),
  sandboxTestValues: Type.Array(
    Type.Object({ product: Type.String(), value: Type.String(), outcome: Type.String() }),
  ),
});

/** An account's branding of its recipients' e-mail and redeem page (modules/giftcards/delivery). */
export const Branding = Type.Object(
  {
    displayName: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
    logoUrl: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
    color: Type.Union([Type.String({ maxLength: 7 }), Type.Null()]),
    footer: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
    codeInEmail: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const DashboardResend = Type.Object(
  { recipientEmail: Type.Optional(Type.String({ maxLength: 254 })) },
  { additionalProperties: false },
);

/** The account's settings the customer changes on the dashboard (issue 27: the gift card shapes). */
export const Settings = Type.Object({ shapes: AccountShapes }, { additionalProperties: false });

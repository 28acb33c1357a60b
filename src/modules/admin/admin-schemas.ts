import { Type } from 'typebox';

/** Response shapes of the admin API: they serialise the answers and document them in OpenAPI. */
const Environment = Type.Union([Type.Literal('live'), Type.Literal('sandbox')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Which shapes the account's gift card answers take (docs/compatibility.md). */
export const AccountShapes = Type.Union([Type.Literal('documented'), Type.Literal('service')], {
  description:
    "documented: the gift card spec's shapes (the default); service: the live service's shapes its official SDKs read (paged lists, the denominations map as one object, timeStamp as text). Both environments, every credential.",
});

export const CreatedAccount = Type.Object({
  accountId: Type.Integer(),
  environment: Environment,
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown once; only its hash is stored.' }),
  balance: Type.Number(),
  currencyCode: Type.String(),
});

export const Account = Type.Object({
  accountId: Type.Integer(),
  name: Type.String(),
  currencyCode: Type.String(),
  countryCode: Type.String(),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  dailyCountLimit: Nullable(Type.Integer()),
  dailyAmountLimit: Nullable(Type.Number()),
  shapes: AccountShapes,
  createdAt: Type.String(),
});

const BalanceSummary = Type.Object({ balance: Type.Number(), updatedAt: Type.Optional(Type.String()) });

export const AccountDetail = Type.Object({
  ...Account.properties,
  balances: Type.Object({ live: BalanceSummary, sandbox: BalanceSummary }),
  credentials: Type.Array(
    Type.Object({
      clientId: Type.String(),
      environment: Environment,
      scopes: Type.Array(Type.String()),
      revoked: Type.Boolean(),
      createdAt: Type.String(),
    }),
  ),
});

export const AccountPage = Type.Object({
  items: Type.Array(Account),
  total: Type.Integer(),
  page: Type.Integer(),
  size: Type.Integer(),
});

export const CreatedCredential = Type.Object({
  accountId: Type.Integer(),
  environment: Environment,
  clientId: Type.String(),
  clientSecret: Type.String(),
  scopes: Type.Array(Type.String()),
});

export const RevokedCredential = Type.Object({ clientId: Type.String(), revoked: Type.Boolean() });

export const BalanceChange = Type.Object({
  accountId: Type.Integer(),
  environment: Environment,
  entryId: Type.Integer(),
  kind: Type.String(),
  amount: Type.Number(),
  oldBalance: Type.Number(),
  newBalance: Type.Number(),
  currencyCode: Type.String(),
  reason: Type.String(),
});

export const LedgerPage = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      kind: Type.String(),
      amount: Type.Number(),
      balanceAfter: Type.Number(),
      currencyCode: Type.String(),
      reason: Nullable(Type.String()),
      product: Nullable(Type.String()),
      transactionId: Nullable(Type.Integer()),
      createdAt: Type.String(),
    }),
  ),
  page: Type.Integer(),
  size: Type.Integer(),
});

export const Audit = Type.Object({
  /** Every balance that differs from the sum of its entries. */
  discrepancies: Type.Array(
    Type.Object({
      accountId: Type.Integer(),
      environment: Type.String(),
      balance: Type.String(),
      sum: Type.String(),
    }),
  ),
  /** Every order and top-up whose ledger entries do not match it, and every entry without its transaction. */
  orders: Type.Array(
    Type.Object({
      product: Type.String(),
      transactionId: Type.Integer(),
      accountId: Type.Integer(),
      environment: Type.String(),
      status: Type.Union([Type.String(), Type.Null()]),
      problem: Type.String(),
    }),
  ),
});

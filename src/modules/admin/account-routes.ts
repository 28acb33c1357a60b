import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import { type AccountsService, createAccountInputOf } from '../accounts/index.ts';
import { type AuditedRequest, params } from '../audit/index.ts';
import type { Ledger } from '../ledger/index.ts';
import {
  Account,
  AccountDetail,
  AccountPage,
  AccountShapes,
  Audit,
  BalanceChange,
  CreatedAccount,
  CreatedCredential,
  LedgerPage,
  RevokedCredential,
} from './admin-schemas.ts';

/**
 * The operator's account management (decisions §8): accounts, credentials, funding and adjustments.
 * Every balance change is one ledger entry with a reason. The `airgift` CLI calls these routes.
 */
const Environment = Type.Union([Type.Literal('live'), Type.Literal('sandbox')]);
const Amount = Type.Union([Type.Number(), Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })]);
const AccountIdParams = Type.Object({ accountId: Type.Integer({ minimum: 1 }) });
const Scopes = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 });

const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Type.String({ pattern: '^[A-Za-z]{3}$' }),
    country: Type.String({ pattern: '^[A-Za-z]{2}$' }),
    environment: Environment,
    fund: Type.Optional(Amount),
    dailyCountLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    dailyAmountLimit: Type.Optional(Type.Union([Amount, Type.Null()])),
    scopes: Type.Optional(Scopes),
  },
  { additionalProperties: false },
);

const UpdateAccountBody = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')])),
    dailyCountLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    dailyAmountLimit: Type.Optional(Type.Union([Amount, Type.Null()])),
    shapes: Type.Optional(AccountShapes),
  },
  { additionalProperties: false },
);

const BalanceChangeBody = Type.Object(
  { environment: Environment, amount: Amount, reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);

export function accountAdminRoutes(app: TypedApp, accounts: AccountsService, ledger: Ledger) {
  // What the audit log names (modules/audit/audit-hook.ts): the account, and its state before a change.
  const account = (request: AuditedRequest) => `account ${params(request).accountId}`;
  const before = (request: AuditedRequest) => accounts.show(Number(params(request).accountId));

  app.post(
    '/accounts',
    {
      schema: { body: CreateAccountBody, response: { 200: CreatedAccount } },
      config: { audit: { action: 'account.create', target: (_, made) => `account ${made?.accountId}` } },
    },
    async (request) => accounts.create(createAccountInputOf(request.body)),
  );

  app.get(
    '/accounts',
    { schema: { querystring: Type.Object(pagingQuery(200)), response: { 200: AccountPage } } },
    async (request) => {
      const page = toLimitOffset(request.query);
      const { items, total } = await accounts.list(page);
      return { items, total, page: page.page, size: page.size };
    },
  );

  app.get(
    '/accounts/:accountId',
    { schema: { params: AccountIdParams, response: { 200: AccountDetail } } },
    async (request) => {
      const { accountId } = request.params;
      return accounts.describe(accountId);
    },
  );

  app.patch(
    '/accounts/:accountId',
    {
      schema: { params: AccountIdParams, body: UpdateAccountBody, response: { 200: Account } },
      config: { audit: { action: 'account.update', target: account, before } },
    },
    async (request) => {
      const { accountId } = request.params;
      return accounts.update(accountId, request.body);
    },
  );

  for (const [action, status] of [
    ['deactivate', 'INACTIVE'],
    ['activate', 'ACTIVE'],
  ] as const) {
    app.post(
      `/accounts/:accountId/${action}`,
      {
        schema: { params: AccountIdParams, response: { 200: Account } },
        config: { audit: { action: `account.${status.toLowerCase()}`, target: account, before } },
      },
      async (request) => {
        const { accountId } = request.params;
        return accounts.update(accountId, { status });
      },
    );
  }

  const CredentialBody = Type.Object(
    { environment: Environment, scopes: Type.Optional(Scopes) },
    { additionalProperties: false },
  );
  app.post(
    '/accounts/:accountId/credentials',
    {
      schema: { params: AccountIdParams, body: CredentialBody, response: { 200: CreatedCredential } },
      config: { audit: { action: 'credential.create', target: (_, made) => String(made?.clientId) } },
    },
    async (request) => {
      const { accountId } = request.params;
      const body = request.body;
      return accounts.createCredential(accountId, body.environment, body.scopes);
    },
  );

  const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) });
  app.post(
    '/credentials/:clientId/revoke',
    {
      schema: { params: ClientParams, response: { 200: RevokedCredential } },
      config: { audit: { action: 'credential.revoke', target: (r) => String(params(r).clientId) } },
    },
    async (request) => {
      return accounts.revokeCredential(request.params.clientId);
    },
  );

  for (const [action, kind] of [
    ['fund', 'FUNDING'],
    ['adjust', 'ADJUSTMENT'],
  ] as const) {
    app.post(
      `/accounts/:accountId/${action}`,
      {
        schema: { params: AccountIdParams, body: BalanceChangeBody, response: { 200: BalanceChange } },
        // the answer holds the balance before and after
        config: { audit: { action: `account.${action}`, target: account } },
      },
      async (request) => {
        const { accountId } = request.params;
        const body = request.body;
        return accounts.changeBalance(accountId, body.environment, kind, body.amount, body.reason);
      },
    );
  }

  const LedgerQuery = Type.Object({ environment: Environment, ...pagingQuery(200) });
  app.get(
    '/accounts/:accountId/ledger',
    { schema: { params: AccountIdParams, querystring: LedgerQuery, response: { 200: LedgerPage } } },
    async (request) => {
      const { accountId } = request.params;
      const query = request.query;
      await accounts.require(accountId);
      const page = toLimitOffset(query);
      const entries = await ledger.entries(accountId, query.environment, page);
      return {
        items: entries.map((e) => ({
          ...e,
          amount: Number(e.amount),
          balanceAfter: Number(e.balanceAfter),
          createdAt: formatDateTime(e.createdAt),
        })),
        page: page.page,
        size: page.size,
      };
    },
  );

  /**
   * The ledger audit: every balance whose amount differs from the sum of its entries, and every order
   * or top-up whose entries do not match it (both empty when sound).
   */
  app.get('/ledger/audit', { schema: { response: { 200: Audit } } }, async () => ({
    discrepancies: await ledger.discrepancies(),
    orders: await ledger.orderMismatches(),
  }));
}

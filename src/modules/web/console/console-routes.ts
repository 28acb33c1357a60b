import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../../http/schemas.ts';
import { TopupOperatorStatus } from '../../topups/index.ts';
import { AuditPage, EmailBody, Invitation } from '../users/users-schemas.ts';
import type { UsersService } from '../users/users-service.ts';
import { webUserOf } from '../users/web-session.ts';
import { AccountIdParams, ClientParams, EnvironmentQuery, Revoked } from '../web-schemas.ts';
import {
  Account,
  AccountList,
  AccountPage,
  BalanceBody,
  BalanceChange,
  Chart,
  CreateAccountBody,
  CreatedAccount,
  CurrencyParams,
  FxRate,
  FxRateBody,
  FxTable,
  LedgerAudit,
  LimitsBody,
  OperatorPage,
  OperatorParams,
  OutboxPage,
  OutboxQuery,
  PagingQuery,
  ProductPage,
  ProductParams,
  ProductStatus,
  SearchQuery,
  ShapesBody,
  StatusBody,
  StockList,
  TransactionPage,
  TransactionsQuery,
  UpstreamList,
} from './console-schemas.ts';
import type { ConsoleService, Operator } from './console-service.ts';

/**
 * The console's JSON endpoints: thin, each calls the console service with the signed-in operator
 * (e-mail and IP, for the audit log). Their schemas are in console-schemas.ts.
 */
const operatorOf = (request: FastifyRequest): Operator => {
  const user = webUserOf(request);
  return { id: user.id, email: user.email, ip: request.ip };
};

/** A page of `size` (25 by default) as a limit and an offset. */
const pageOf = (query: { page?: number; size?: number }) => {
  const size = query.size ?? 25;
  return { limit: size, offset: ((query.page ?? 1) - 1) * size };
};

export function consoleRoutes(
  app: TypedApp,
  deps: { console: ConsoleService; users: UsersService; dashboardUrl: string },
) {
  const c = deps.console;

  app.post(
    '/api/accounts/:accountId/users',
    { schema: { params: AccountIdParams, body: EmailBody, response: { 200: Invitation } } },
    async (request) =>
      c.inviteUser(operatorOf(request), request.params.accountId, request.body.email, deps.dashboardUrl),
  );

  app.get(
    '/api/accounts',
    { schema: { querystring: SearchQuery, response: { 200: AccountList } } },
    async (request) => ({
      items: await c.searchAccounts(request.query.search || undefined, pageOf(request.query)),
    }),
  );

  app.post(
    '/api/accounts',
    { schema: { body: CreateAccountBody, response: { 200: CreatedAccount } } },
    async (request) => {
      const b = request.body;
      return c.createAccount(operatorOf(request), {
        name: b.name,
        currencyCode: b.currency,
        countryCode: b.country,
        environment: b.environment,
        fund: b.fund,
      });
    },
  );

  app.get(
    '/api/accounts/:accountId',
    { schema: { params: AccountIdParams, response: { 200: AccountPage } } },
    async (request) => ({
      account: await c.describe(request.params.accountId),
      users: await deps.users.list('customer', request.params.accountId),
    }),
  );

  for (const [action, kind] of [
    ['fund', 'FUNDING'],
    ['adjust', 'ADJUSTMENT'],
  ] as const) {
    app.post(
      `/api/accounts/:accountId/${action}`,
      { schema: { params: AccountIdParams, body: BalanceBody, response: { 200: BalanceChange } } },
      async (request) => c.changeBalance(operatorOf(request), request.params.accountId, kind, request.body),
    );
  }

  app.post(
    '/api/accounts/:accountId/limits',
    { schema: { params: AccountIdParams, body: LimitsBody, response: { 200: Account } } },
    async (request) => c.update(operatorOf(request), request.params.accountId, request.body),
  );

  app.post(
    '/api/accounts/:accountId/status',
    { schema: { params: AccountIdParams, body: StatusBody, response: { 200: Account } } },
    async (request) =>
      c.update(operatorOf(request), request.params.accountId, { status: request.body.status }),
  );

  // Issue 27: which shapes the account's gift card answers take (docs/compatibility.md).
  app.post(
    '/api/accounts/:accountId/shapes',
    { schema: { params: AccountIdParams, body: ShapesBody, response: { 200: Account } } },
    async (request) =>
      c.update(operatorOf(request), request.params.accountId, { shapes: request.body.shapes }),
  );

  app.post(
    '/api/credentials/:clientId/revoke',
    { schema: { params: ClientParams, response: { 200: Revoked } } },
    async (request) => c.revokeCredential(operatorOf(request), request.params.clientId),
  );

  app.get('/api/ledger-audit', { schema: { response: { 200: LedgerAudit } } }, async () => c.ledgerAudit());

  app.get(
    '/api/transactions',
    { schema: { querystring: TransactionsQuery, response: { 200: TransactionPage } } },
    async (request) => {
      const q = request.query;
      return c.transactions(
        { environment: q.environment, product: q.product ?? 'all', accountId: q.accountId },
        { page: q.page ?? 1, size: q.size ?? 25 },
      );
    },
  );

  app.get(
    '/api/products',
    { schema: { querystring: SearchQuery, response: { 200: ProductPage } } },
    async (request) => c.products(request.query.search || undefined, pageOf(request.query)),
  );

  app.post(
    '/api/products/:productId/status',
    { schema: { params: ProductParams, body: StatusBody, response: { 200: ProductStatus } } },
    async (request) => c.setProductStatus(operatorOf(request), request.params.productId, request.body.status),
  );

  app.get(
    '/api/topup-operators',
    { schema: { querystring: SearchQuery, response: { 200: OperatorPage } } },
    async (request) => c.topupOperators(request.query.search || undefined, pageOf(request.query)),
  );

  // The answer is the admin API's (topups/catalog/operator-admin-routes.ts), which the pages ignore.
  app.post(
    '/api/topup-operators/:operatorId/status',
    { schema: { params: OperatorParams, body: StatusBody, response: { 200: TopupOperatorStatus } } },
    async (request) =>
      c.setTopupOperatorStatus(operatorOf(request), request.params.operatorId, request.body.status),
  );

  app.get('/api/stock', { schema: { response: { 200: StockList } } }, async () => c.stock());

  app.get('/api/upstreams', { schema: { response: { 200: UpstreamList } } }, async () => c.upstreams());

  app.get('/api/fx', { schema: { response: { 200: FxTable } } }, async () => c.fxTable());

  app.post(
    '/api/fx/:currencyCode',
    { schema: { params: CurrencyParams, body: FxRateBody, response: { 200: FxRate } } },
    async (request) =>
      c.setFxRate(operatorOf(request), request.params.currencyCode, request.body.unitsPerUsd),
  );

  app.get(
    '/api/audit',
    { schema: { querystring: PagingQuery, response: { 200: AuditPage } } },
    async (request) => {
      const size = request.query.size ?? 25;
      const page = request.query.page ?? 1;
      return { items: await c.auditPage({ limit: size, offset: (page - 1) * size }), page, size };
    },
  );

  app.get(
    '/api/outbox',
    { schema: { querystring: OutboxQuery, response: { 200: OutboxPage } } },
    async (request) => c.outbox({ limit: request.query.size ?? 25, before: request.query.before }),
  );

  app.get(
    '/api/chart',
    { schema: { querystring: EnvironmentQuery, response: { 200: Chart } } },
    async (request) => c.chart(request.query.environment),
  );
}

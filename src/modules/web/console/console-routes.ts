import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypedApp } from '../../../http/schemas.ts';
import {
  Account,
  AccountDetail,
  AccountShapes,
  Audit,
  BalanceChange,
  CreatedAccount,
} from '../../admin/index.ts';
import { TopupOperatorStatus } from '../../topups/index.ts';
import { UpstreamSchema } from '../../upstream/index.ts';
import { AuditPage, Invitation } from '../admin/web-admin-routes.ts';
import { Environment, EnvironmentQuery, Revoked, WebUser } from '../dashboard/dashboard-schemas.ts';
import type { UsersService } from '../users-service.ts';
import { webUserOf } from '../web-session.ts';
import type { ConsoleService, Operator } from './console-service.ts';

/**
 * The console's JSON endpoints: thin, each calls the console service with the signed-in operator
 * (e-mail and IP, for the audit log).
 */
const AccountIdParams = Type.Object({ accountId: Type.Integer({ minimum: 1 }) });
const Amount = Type.Union([Type.Number(), Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })]);
const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 25 })),
};
const ProductName = Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]);
const Product = Type.Union([Type.Literal('all'), Type.Literal('giftcards'), Type.Literal('topups')]);

const OutboxPage = Type.Object({
  items: Type.Array(
    Type.Object({
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
    }),
  ),
  next: Type.Union([Type.Integer(), Type.Null()]),
});

const operatorOf = (request: FastifyRequest): Operator => {
  const user = webUserOf(request);
  return { id: user.id, email: user.email, ip: request.ip };
};

export function consoleRoutes(
  app: TypedApp,
  deps: { console: ConsoleService; users: UsersService; dashboardUrl: string },
) {
  const c = deps.console;

  app.post(
    '/api/accounts/:accountId/users',
    {
      schema: {
        params: AccountIdParams,
        body: Type.Object(
          { email: Type.String({ minLength: 3, maxLength: 254 }) },
          { additionalProperties: false },
        ),
        response: { 200: Invitation },
      },
    },
    async (request) =>
      c.inviteUser(operatorOf(request), request.params.accountId, request.body.email, deps.dashboardUrl),
  );

  app.get(
    '/api/accounts',
    {
      schema: {
        querystring: Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })), ...Paging }),
        response: { 200: Type.Object({ items: Type.Array(Account) }) },
      },
    },
    async (request) => {
      const size = request.query.size ?? 25;
      const offset = ((request.query.page ?? 1) - 1) * size;
      return { items: await c.searchAccounts(request.query.search || undefined, { limit: size, offset }) };
    },
  );

  app.post(
    '/api/accounts',
    {
      schema: {
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            currency: Type.String({ pattern: '^[A-Za-z]{3}$' }),
            country: Type.String({ pattern: '^[A-Za-z]{2}$' }),
            environment: Environment,
            fund: Type.Optional(Amount),
          },
          { additionalProperties: false },
        ),
        response: { 200: CreatedAccount },
      },
    },
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
    {
      schema: {
        params: AccountIdParams,
        response: { 200: Type.Object({ account: AccountDetail, users: Type.Array(WebUser) }) },
      },
    },
    async (request) => ({
      account: await c.describe(request.params.accountId),
      users: await deps.users.list('customer', request.params.accountId),
    }),
  );

  const BalanceBody = Type.Object(
    { environment: Environment, amount: Amount, reason: Type.String({ minLength: 1, maxLength: 500 }) },
    { additionalProperties: false },
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
    {
      schema: {
        params: AccountIdParams,
        body: Type.Object(
          {
            dailyCountLimit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
            dailyAmountLimit: Type.Union([Amount, Type.Null()]),
          },
          { additionalProperties: false },
        ),
        response: { 200: Account },
      },
    },
    async (request) => c.update(operatorOf(request), request.params.accountId, request.body),
  );

  app.post(
    '/api/accounts/:accountId/status',
    {
      schema: {
        params: AccountIdParams,
        body: Type.Object(
          { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]) },
          { additionalProperties: false },
        ),
        response: { 200: Account },
      },
    },
    async (request) =>
      c.update(operatorOf(request), request.params.accountId, { status: request.body.status }),
  );

  // Issue 27: which shapes the account's gift card answers take (docs/compatibility.md).
  app.post(
    '/api/accounts/:accountId/shapes',
    {
      schema: {
        params: AccountIdParams,
        body: Type.Object({ shapes: AccountShapes }, { additionalProperties: false }),
        response: { 200: Account },
      },
    },
    async (request) =>
      c.update(operatorOf(request), request.params.accountId, { shapes: request.body.shapes }),
  );

  app.post(
    '/api/credentials/:clientId/revoke',
    {
      schema: {
        params: Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Revoked },
      },
    },
    async (request) => c.revokeCredential(operatorOf(request), request.params.clientId),
  );

  app.get(
    '/api/ledger-audit',
    { schema: { response: { 200: Type.Object({ ...Audit.properties, checkedAt: Type.String() }) } } },
    async () => c.ledgerAudit(),
  );

  app.get(
    '/api/transactions',
    {
      schema: {
        querystring: Type.Object({
          environment: Environment,
          product: Type.Optional(Product),
          accountId: Type.Optional(Type.Integer({ minimum: 1 })),
          ...Paging,
        }),
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                product: Type.String(),
                transactionId: Type.Integer(),
                accountId: Type.Integer(),
                status: Type.String(),
                description: Type.String(),
                customIdentifier: Type.Union([Type.String(), Type.Null()]),
                cost: Type.Number(),
                currencyCode: Type.String(),
                createdAt: Type.String(),
              }),
            ),
            hasMore: Type.Boolean(),
            page: Type.Integer(),
            size: Type.Integer(),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      return c.transactions(
        { environment: q.environment, product: q.product ?? 'all', accountId: q.accountId },
        { page: q.page ?? 1, size: q.size ?? 25 },
      );
    },
  );

  const ProductLine = Type.Object({
    productId: Type.Integer(),
    productName: Type.String(),
    countryCode: Type.String(),
    status: Type.String(),
  });
  app.get(
    '/api/products',
    {
      schema: {
        querystring: Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })), ...Paging }),
        response: { 200: Type.Object({ items: Type.Array(ProductLine), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const size = request.query.size ?? 25;
      const offset = ((request.query.page ?? 1) - 1) * size;
      return c.products(request.query.search || undefined, { limit: size, offset });
    },
  );

  app.post(
    '/api/products/:productId/status',
    {
      schema: {
        params: Type.Object({ productId: Type.Integer({ minimum: 1 }) }),
        body: Type.Object(
          { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ productId: Type.Integer(), status: Type.String() }) },
      },
    },
    async (request) => c.setProductStatus(operatorOf(request), request.params.productId, request.body.status),
  );

  const OperatorLine = Type.Object({
    operatorId: Type.Integer(),
    name: Type.String(),
    countryCode: Type.String(),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  });
  app.get(
    '/api/topup-operators',
    {
      schema: {
        querystring: Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })), ...Paging }),
        response: { 200: Type.Object({ items: Type.Array(OperatorLine), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const size = request.query.size ?? 25;
      const offset = ((request.query.page ?? 1) - 1) * size;
      return c.topupOperators(request.query.search || undefined, { limit: size, offset });
    },
  );

  app.post(
    '/api/topup-operators/:operatorId/status',
    {
      schema: {
        params: Type.Object({ operatorId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        body: Type.Object(
          { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]) },
          { additionalProperties: false },
        ),
        response: { 200: TopupOperatorStatus },
      },
    },
    async (request) =>
      c.setTopupOperatorStatus(operatorOf(request), request.params.operatorId, request.body.status),
  );

  app.get(
    '/api/stock',
    {
      schema: {
        response: {
          200: Type.Object({
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
          }),
        },
      },
    },
    async () => c.stock(),
  );

  app.get(
    '/api/upstreams',
    { schema: { response: { 200: Type.Object({ items: Type.Array(UpstreamSchema) }) } } },
    async () => c.upstreams(),
  );

  const FxRate = Type.Object({
    currencyCode: Type.String(),
    unitsPerUsd: Type.Number(),
    asOf: Type.String(),
  });
  app.get(
    '/api/fx',
    {
      schema: { response: { 200: Type.Object({ marginPercent: Type.Number(), rates: Type.Array(FxRate) }) } },
    },
    async () => c.fxTable(),
  );

  app.post(
    '/api/fx/:currencyCode',
    {
      schema: {
        params: Type.Object({ currencyCode: Type.String({ pattern: '^[A-Z]{3}$' }) }),
        body: Type.Object(
          { unitsPerUsd: Type.String({ pattern: '^\\d+(\\.\\d+)?$' }) },
          { additionalProperties: false },
        ),
        response: { 200: FxRate },
      },
    },
    async (request) =>
      c.setFxRate(operatorOf(request), request.params.currencyCode, request.body.unitsPerUsd),
  );

  app.get(
    '/api/audit',
    { schema: { querystring: Type.Object(Paging), response: { 200: AuditPage } } },
    async (request) => {
      const size = request.query.size ?? 25;
      const page = request.query.page ?? 1;
      return { items: await c.auditPage({ limit: size, offset: (page - 1) * size }), page, size };
    },
  );

  app.get(
    '/api/outbox',
    {
      schema: {
        querystring: Type.Object({
          before: Type.Optional(Type.Integer({ minimum: 1, description: 'the `next` of the page before' })),
          size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
        }),
        response: { 200: OutboxPage },
      },
    },
    async (request) => c.outbox({ limit: request.query.size ?? 25, before: request.query.before }),
  );

  app.get(
    '/api/chart',
    {
      schema: {
        querystring: EnvironmentQuery,
        response: {
          200: Type.Object({
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
          }),
        },
      },
    },
    async (request) => c.chart(request.query.environment),
  );
}

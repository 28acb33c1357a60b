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
import {
  type AuditedRequest,
  type AuditLog,
  AuditPage,
  AuditQuery,
  AuditVerification,
  params,
} from '../../audit/index.ts';
import { type RequestLog, RequestLogPage, RequestLogQuery } from '../../request-log/index.ts';
import { TopupOperatorStatus } from '../../topups/index.ts';
import { UpstreamSchema } from '../../upstream/index.ts';
import { Invitation } from '../admin/web-admin-routes.ts';
import { Environment, EnvironmentQuery, Revoked, WebUser } from '../dashboard/dashboard-schemas.ts';
import type { UsersService } from '../users-service.ts';
import type { ConsoleService } from './console-service.ts';

/**
 * The console's JSON endpoints: thin, each calls the console service. Every mutation's audit line
 * (the signed-in operator, what, on what, before and after) is written by the console's audit hook
 * from the route's `config.audit` (modules/audit/audit-hook.ts).
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

const account = (request: AuditedRequest) => `account ${params(request).accountId}`;
/** `account.inactive`, `product.active`: the thing and the status the body asks for. */
const statusAction = (thing: string) => (request: AuditedRequest) =>
  `${thing}.${String((request.body as { status: string }).status).toLowerCase()}`;

export function consoleRoutes(
  app: TypedApp,
  deps: {
    console: ConsoleService;
    users: UsersService;
    audit: AuditLog;
    requestLog: Pick<RequestLog, 'list'>;
    dashboardUrl: string;
  },
) {
  const c = deps.console;
  const accountBefore = (request: AuditedRequest) => c.show(Number(params(request).accountId));
  const accountAudit = (action: string | ((request: AuditedRequest) => string)) => ({
    action,
    target: account,
    before: accountBefore,
  });

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
      config: { audit: { action: 'user.invite', target: account } },
    },
    async (request) => c.inviteUser(request.params.accountId, request.body.email, deps.dashboardUrl),
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
      config: { audit: { action: 'account.create', target: (_, made) => `account ${made?.accountId}` } },
    },
    async (request) => {
      const b = request.body;
      return c.createAccount({
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
      {
        schema: { params: AccountIdParams, body: BalanceBody, response: { 200: BalanceChange } },
        // the answer holds the balance before and after
        config: { audit: { action: `account.${action}`, target: account } },
      },
      async (request) => c.changeBalance(request.params.accountId, kind, request.body),
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
      config: { audit: accountAudit('account.limits') },
    },
    async (request) => c.update(request.params.accountId, request.body),
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
      config: { audit: accountAudit(statusAction('account')) },
    },
    async (request) => c.update(request.params.accountId, { status: request.body.status }),
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
      config: { audit: accountAudit('account.shapes') },
    },
    async (request) => c.update(request.params.accountId, { shapes: request.body.shapes }),
  );

  app.post(
    '/api/credentials/:clientId/revoke',
    {
      schema: {
        params: Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Revoked },
      },
      config: { audit: { action: 'credential.revoke', target: (r) => String(params(r).clientId) } },
    },
    async (request) => c.revokeCredential(request.params.clientId),
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
      config: { audit: { action: statusAction('product'), target: (r) => `product ${params(r).productId}` } },
    },
    async (request) => c.setProductStatus(request.params.productId, request.body.status),
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
      config: {
        audit: {
          action: statusAction('topup-operator'),
          target: (r) => `topup operator ${params(r).operatorId}`,
        },
      },
    },
    async (request) => c.setTopupOperatorStatus(request.params.operatorId, request.body.status),
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
      config: {
        audit: {
          action: 'fx.set',
          target: (r) => String(params(r).currencyCode),
          before: (r) => c.fxRate(String(params(r).currencyCode)),
        },
      },
    },
    async (request) => c.setFxRate(request.params.currencyCode, request.body.unitsPerUsd),
  );

  // An account's API requests (modules/request-log), as its dashboard users read them.
  app.get(
    '/api/accounts/:accountId/requests',
    { schema: { params: AccountIdParams, querystring: RequestLogQuery, response: { 200: RequestLogPage } } },
    async (request) => {
      const { page = 1, size = 50, ...filter } = request.query;
      await c.show(request.params.accountId);
      const found = await deps.requestLog.list(request.params.accountId, filter, {
        limit: size,
        offset: (page - 1) * size,
      });
      return { ...found, page, size };
    },
  );

  // The audit log of every channel: a page, the same as CSV, the walk of the whole chain.
  app.get(
    '/api/audit',
    {
      schema: {
        querystring: Type.Object({ ...AuditQuery.properties, ...Paging }),
        response: { 200: AuditPage },
      },
    },
    async (request) => {
      const { page: p, size: s, ...filter } = request.query;
      const size = s ?? 25;
      const page = p ?? 1;
      return { ...(await deps.audit.list(filter, { limit: size, offset: (page - 1) * size })), page, size };
    },
  );

  app.get(
    '/api/audit.csv',
    {
      schema: {
        querystring: AuditQuery,
        description: 'The filtered audit lines as CSV (text/csv), newest first, at most 100 000',
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(await deps.audit.csv(request.query)),
  );

  app.get('/api/audit/verify', { schema: { response: { 200: AuditVerification } } }, async () =>
    deps.audit.verify(),
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

import type { Static, TSchema } from 'typebox';
import { toLimitOffset } from '../../../http/paging.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import { createAccountInputOf } from '../../accounts/index.ts';
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
import { AccountInviteBody } from '../users/team-schemas.ts';
import { Invitation } from '../users/users-schemas.ts';
import type { UsersService } from '../users/users-service.ts';
import { AccountIdParams, ClientParams, EnvironmentQuery, Revoked } from '../web-schemas.ts';
import {
  Account,
  AccountList,
  AccountPage,
  AuditListQuery,
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
  ProductPage,
  ProductParams,
  ProductStatus,
  SearchQuery,
  ShapesBody,
  StatusBody,
  StockList,
  UpstreamList,
} from './console-schemas.ts';
import type { ConsoleService } from './console-service.ts';
import { searchRoutes } from './search-routes.ts';
import type { TransactionSearch } from './transaction-search.ts';

/**
 * The console's JSON endpoints: thin, each calls the console service. Their schemas are in
 * console-schemas.ts. Every mutation's audit line (the signed-in operator, what, on what, before and
 * after) is written by the console's audit hook from the route's `config.audit`
 * (modules/audit/audit-hook.ts).
 */
const account = (request: AuditedRequest) => `account ${params(request).accountId}`;
/** `account.inactive`, `product.active`: the thing and the status the body asks for. */
const statusAction = (thing: string) => (request: AuditedRequest) =>
  `${thing}.${String((request.body as { status: string }).status).toLowerCase()}`;

/** One of the console's catalogues: gift card products, top-up operators. */
interface Catalogue<Page extends TSchema, Params extends TSchema, Status extends TSchema> {
  /** GET `path`: one page; POST `path/:idParam/status`: one item's status. */
  path: string;
  idParam: string;
  schemas: { page: Page; params: Params; status: Status };
  /** Its audit lines: the action `product.active`, the target `product 12`. */
  audit: { thing: string; noun: string };
  page(search: string | undefined, page: { limit: number; offset: number }): Promise<Static<Page>>;
  setStatus(id: number, status: 'ACTIVE' | 'INACTIVE'): Promise<Static<Status>>;
}

/**
 * A catalogue's two routes, the same for both catalogues but for their names: its items found by
 * `search`, a page at a time (`read`), and activating or deactivating one (`money`, audited).
 */
function catalogueRoutes<Page extends TSchema, Params extends TSchema, Status extends TSchema>(
  app: TypedApp,
  catalogue: Catalogue<Page, Params, Status>,
) {
  // Fastify cannot relate a generic schema to its answer's type: the answers are checked against their
  // schemas where a catalogue is given (its type parameters), the routes here take plain schemas.
  const loose: Catalogue<TSchema, TSchema, TSchema> = catalogue;
  const { path, idParam, schemas, audit } = loose;
  app.get(
    path,
    { config: { permission: 'read' }, schema: { querystring: SearchQuery, response: { 200: schemas.page } } },
    async (request) => loose.page(request.query.search || undefined, toLimitOffset(request.query, 25)),
  );

  app.post(
    `${path}/:${idParam}/status`,
    {
      schema: { params: schemas.params, body: StatusBody, response: { 200: schemas.status } },
      config: {
        permission: 'money',
        audit: { action: statusAction(audit.thing), target: (r) => `${audit.noun} ${params(r)[idParam]}` },
      },
    },
    async (request) => loose.setStatus(params<Record<string, number>>(request)[idParam], request.body.status),
  );
}

export function consoleRoutes(
  app: TypedApp,
  deps: {
    console: ConsoleService;
    search: TransactionSearch;
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
      schema: { params: AccountIdParams, body: AccountInviteBody, response: { 200: Invitation } },
      config: { permission: 'team', audit: { action: 'user.invite', target: account } },
    },
    async (request) =>
      c.inviteUser(request.params.accountId, request.body.email, deps.dashboardUrl, request.body.role),
  );

  app.get(
    '/api/accounts',
    { config: { permission: 'read' }, schema: { querystring: SearchQuery, response: { 200: AccountList } } },
    async (request) => ({
      items: await c.searchAccounts(request.query.search || undefined, toLimitOffset(request.query, 25)),
    }),
  );

  app.post(
    '/api/accounts',
    {
      schema: { body: CreateAccountBody, response: { 200: CreatedAccount } },
      config: {
        permission: 'money',
        audit: { action: 'account.create', target: (_, made) => `account ${made?.accountId}` },
      },
    },
    async (request) => c.createAccount(createAccountInputOf(request.body)),
  );

  app.get(
    '/api/accounts/:accountId',
    { config: { permission: 'read' }, schema: { params: AccountIdParams, response: { 200: AccountPage } } },
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
      {
        schema: { params: AccountIdParams, body: BalanceBody, response: { 200: BalanceChange } },
        // the answer holds the balance before and after
        config: { permission: 'money', audit: { action: `account.${action}`, target: account } },
      },
      async (request) => c.changeBalance(request.params.accountId, kind, request.body),
    );
  }

  app.post(
    '/api/accounts/:accountId/limits',
    {
      schema: { params: AccountIdParams, body: LimitsBody, response: { 200: Account } },
      config: { permission: 'money', audit: accountAudit('account.limits') },
    },
    async (request) => c.update(request.params.accountId, request.body),
  );

  app.post(
    '/api/accounts/:accountId/status',
    {
      schema: { params: AccountIdParams, body: StatusBody, response: { 200: Account } },
      config: { permission: 'money', audit: accountAudit(statusAction('account')) },
    },
    async (request) => c.update(request.params.accountId, { status: request.body.status }),
  );

  // Issue 27: which shapes the account's gift card answers take (docs/compatibility.md).
  app.post(
    '/api/accounts/:accountId/shapes',
    {
      schema: { params: AccountIdParams, body: ShapesBody, response: { 200: Account } },
      config: { permission: 'money', audit: accountAudit('account.shapes') },
    },
    async (request) => c.update(request.params.accountId, { shapes: request.body.shapes }),
  );

  app.post(
    '/api/credentials/:clientId/revoke',
    {
      schema: { params: ClientParams, response: { 200: Revoked } },
      config: {
        permission: 'money',
        audit: { action: 'credential.revoke', target: (r) => String(params(r).clientId) },
      },
    },
    async (request) => c.revokeCredential(request.params.clientId),
  );

  app.get(
    '/api/ledger-audit',
    { config: { permission: 'read' }, schema: { response: { 200: LedgerAudit } } },
    async () => c.ledgerAudit(),
  );

  // the transactions of every account: the search and its CSV (support work)
  searchRoutes(app, { search: deps.search });

  catalogueRoutes(app, {
    path: '/api/products',
    idParam: 'productId',
    schemas: { page: ProductPage, params: ProductParams, status: ProductStatus },
    audit: { thing: 'product', noun: 'product' },
    page: (search, page) => c.products(search, page),
    setStatus: (id, status) => c.setProductStatus(id, status),
  });

  // The status answer is the admin API's (topups/catalog/operator-admin-routes.ts), which the pages ignore.
  catalogueRoutes(app, {
    path: '/api/topup-operators',
    idParam: 'operatorId',
    schemas: { page: OperatorPage, params: OperatorParams, status: TopupOperatorStatus },
    audit: { thing: 'topup-operator', noun: 'topup operator' },
    page: (search, page) => c.topupOperators(search, page),
    setStatus: (id, status) => c.setTopupOperatorStatus(id, status),
  });

  app.get(
    '/api/stock',
    { config: { permission: 'read' }, schema: { response: { 200: StockList } } },
    async () => c.stock(),
  );

  app.get(
    '/api/upstreams',
    { config: { permission: 'read' }, schema: { response: { 200: UpstreamList } } },
    async () => c.upstreams(),
  );

  app.get('/api/fx', { config: { permission: 'read' }, schema: { response: { 200: FxTable } } }, async () =>
    c.fxTable(),
  );

  app.post(
    '/api/fx/:currencyCode',
    {
      schema: { params: CurrencyParams, body: FxRateBody, response: { 200: FxRate } },
      config: {
        permission: 'money',
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
    {
      config: { permission: 'read' },
      schema: { params: AccountIdParams, querystring: RequestLogQuery, response: { 200: RequestLogPage } },
    },
    async (request) => {
      const { page, size, ...filter } = request.query;
      const paging = toLimitOffset({ page, size }, 50);
      await c.show(request.params.accountId);
      const found = await deps.requestLog.list(request.params.accountId, filter, paging);
      return { ...found, page: paging.page, size: paging.size };
    },
  );

  // The audit log of every channel: a page, the same as CSV, the walk of the whole chain.
  app.get(
    '/api/audit',
    { config: { permission: 'read' }, schema: { querystring: AuditListQuery, response: { 200: AuditPage } } },
    async (request) => {
      const { page, size, ...filter } = request.query;
      const paging = toLimitOffset({ page, size }, 25);
      return { ...(await deps.audit.list(filter, paging)), page: paging.page, size: paging.size };
    },
  );

  app.get(
    '/api/audit.csv',
    {
      config: { permission: 'read' },
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

  app.get(
    '/api/audit/verify',
    { config: { permission: 'read' }, schema: { response: { 200: AuditVerification } } },
    async () => deps.audit.verify(),
  );

  app.get(
    '/api/outbox',
    { config: { permission: 'read' }, schema: { querystring: OutboxQuery, response: { 200: OutboxPage } } },
    async (request) => c.outbox({ limit: request.query.size ?? 25, before: request.query.before }),
  );

  app.get(
    '/api/chart',
    { config: { permission: 'read' }, schema: { querystring: EnvironmentQuery, response: { 200: Chart } } },
    async (request) => c.chart(request.query.environment),
  );
}

import type { Static } from 'typebox';
import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Base } from '../../../http/bases.ts';
import { toLimitOffset } from '../../../http/paging.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import { type AuditedRequest, params } from '../../audit/index.ts';
import { ALL_SCOPES } from '../../auth/index.ts';
import { type GiftcardDelivery, SANDBOX_TEST_PRODUCT_IDS } from '../../giftcards/index.ts';
import { SANDBOX_BOUNCING_DOMAIN, SANDBOX_FAILING_NUMBER_SUFFIX } from '../../messaging/index.ts';
import { type RequestLog, RequestLogPage, RequestLogQuery } from '../../request-log/index.ts';
import { SANDBOX_TEST_NUMBERS } from '../../topups/index.ts';
import { webUserOf } from '../users/web-session.ts';
import { ClientParams, EnvironmentQuery, Revoked } from '../web-schemas.ts';
import {
  Branding,
  CreateCredentialBody,
  CreatedCredential,
  CredentialList,
  DashboardResend,
  Deliveries,
  DocLinks,
  LedgerPage,
  LedgerQuery,
  Overview,
  RevealedCodes,
  Settings,
  TransactionPage,
  TransactionParams,
  TransactionsQuery,
} from './dashboard-schemas.ts';
import { type DashboardService, transactionsCsv } from './dashboard-service.ts';

/**
 * The dashboard's JSON endpoints, thin: each reads the signed-in user's account id from the session
 * (never from the request) and calls a service. A credential or transaction of another account is
 * not found (404), the same as one that does not exist.
 */
const CSV_LIMIT = 10_000;

export function dashboardRoutes(
  app: TypedApp,
  deps: {
    dashboard: DashboardService;
    accounts: AccountsService;
    requestLog: Pick<RequestLog, 'list'>;
    bases: Base[];
    errorsUrl: string;
    /** Gift card delivery: the deliveries, resend and branding (modules/giftcards/delivery). */
    delivery: GiftcardDelivery;
  },
) {
  const { dashboard, accounts } = deps;
  const accountOf = (request: Parameters<typeof webUserOf>[0]) => {
    const user = webUserOf(request);
    return { id: user.id, accountId: user.accountId as number };
  };
  // Each mutation's audit line is written by the dashboard's audit hook (modules/audit/audit-hook.ts),
  // with the signed-in user and their account, from the route's `config.audit`.
  const order = (r: AuditedRequest) =>
    `gift card order ${params(r).transactionId} (${(r.query as { environment: string }).environment})`;
  const ownAccount = (r: AuditedRequest) => `account ${webUserOf(r).accountId}`;

  app.get(
    '/api/overview',
    {
      config: { permission: 'read' },
      schema: { querystring: EnvironmentQuery, response: { 200: Overview } },
    },
    async (request) => dashboard.overview(accountOf(request).accountId, request.query.environment),
  );

  app.get(
    '/api/credentials',
    { config: { permission: 'read' }, schema: { response: { 200: CredentialList } } },
    async (request) => ({
      items: await accounts.credentialsOf(accountOf(request).accountId),
      scopes: [...ALL_SCOPES],
    }),
  );

  app.post(
    '/api/credentials',
    {
      schema: { body: CreateCredentialBody, response: { 200: CreatedCredential } },
      config: {
        permission: 'credentials',
        audit: { action: 'credential.create', target: (_, made) => String(made?.clientId) },
      },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      return accounts.createCredential(accountId, request.body.environment, request.body.scopes);
    },
  );

  app.post(
    '/api/credentials/:clientId/revoke',
    {
      schema: { params: ClientParams, response: { 200: Revoked } },
      config: {
        permission: 'credentials',
        audit: { action: 'credential.revoke', target: (r) => String(params(r).clientId) },
      },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      const own = await accounts.credentialsOf(accountId);
      if (!own.some((c) => c.clientId === request.params.clientId)) {
        throw new AppError('RESOURCE_NOT_FOUND', `No credential ${request.params.clientId}`);
      }
      return accounts.revokeCredential(request.params.clientId);
    },
  );

  const filterOf = (q: Static<typeof TransactionsQuery>) => ({
    environment: q.environment as Environment,
    product: q.product ?? 'all',
    status: q.status,
    customIdentifier: q.customIdentifier,
    startDate: q.startDate,
    endDate: q.endDate,
  });

  app.get(
    '/api/transactions',
    {
      config: { permission: 'read' },
      schema: { querystring: TransactionsQuery, response: { 200: TransactionPage } },
    },
    async (request) =>
      dashboard.transactions(accountOf(request).accountId, filterOf(request.query), {
        page: request.query.page ?? 1,
        size: request.query.size ?? 20,
      }),
  );

  app.get(
    '/api/transactions.csv',
    {
      // an export: finance's (and the owner's)
      config: { permission: 'money' },
      schema: {
        querystring: TransactionsQuery,
        description: `The filtered transactions as CSV (text/csv), at most ${CSV_LIMIT} rows`,
      },
    },
    async (request, reply) => {
      const { items } = await dashboard.transactions(accountOf(request).accountId, filterOf(request.query), {
        page: 1,
        size: CSV_LIMIT,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${request.query.environment}.csv"`)
        .send(transactionsCsv(items));
    },
  );

  app.post(
    '/api/giftcards/transactions/:transactionId/codes',
    {
      schema: { params: TransactionParams, querystring: EnvironmentQuery, response: { 200: RevealedCodes } },
      // never the codes: the line says which order's codes were shown
      config: { permission: 'codes', audit: { action: 'codes.reveal', target: order, after: null } },
    },
    async (request) => {
      const user = accountOf(request);
      return dashboard.revealCodes(
        { id: user.id, accountId: user.accountId },
        request.query.environment,
        request.params.transactionId,
        request.ip,
      );
    },
  );

  // a gift card order's messages to its recipient, the reveals on the redeem page, and a resend
  const principalOf = (request: Parameters<typeof webUserOf>[0], environment: Environment) => ({
    accountId: accountOf(request).accountId,
    environment,
    clientId: 'dashboard',
    scopes: [],
  });
  app.get(
    '/api/giftcards/transactions/:transactionId/deliveries',
    {
      config: { permission: 'read' },
      schema: { params: TransactionParams, querystring: EnvironmentQuery, response: { 200: Deliveries } },
    },
    async (request) =>
      deps.delivery.deliveries.list(
        principalOf(request, request.query.environment),
        request.params.transactionId,
      ),
  );
  app.post(
    '/api/giftcards/transactions/:transactionId/deliveries',
    {
      schema: {
        params: TransactionParams,
        querystring: EnvironmentQuery,
        body: DashboardResend,
        response: { 200: Deliveries },
      },
      config: { permission: 'support', audit: { action: 'delivery.resend', target: order } },
    },
    async (request) =>
      deps.delivery.deliveries.resend(
        principalOf(request, request.query.environment),
        request.params.transactionId,
        deps.delivery.parseResend(request.body ?? {}),
      ),
  );
  app.get(
    '/api/branding',
    { config: { permission: 'read' }, schema: { response: { 200: Branding } } },
    async (request) => deps.delivery.branding.get(accountOf(request).accountId),
  );
  app.post(
    '/api/branding',
    {
      schema: { body: Branding, response: { 200: Branding } },
      config: {
        permission: 'team',
        audit: {
          action: 'account.branding',
          target: ownAccount,
          before: (r) => deps.delivery.branding.get(webUserOf(r).accountId as number),
        },
      },
    },
    async (request) => deps.delivery.branding.set(accountOf(request).accountId, request.body),
  );

  app.get(
    '/api/ledger',
    { config: { permission: 'read' }, schema: { querystring: LedgerQuery, response: { 200: LedgerPage } } },
    async (request) =>
      dashboard.ledgerPage(accountOf(request).accountId, request.query.environment, {
        page: request.query.page ?? 1,
        size: request.query.size ?? 25,
      }),
  );

  // The account's API requests (modules/request-log): any user of the account reads them.
  app.get(
    '/api/requests',
    {
      config: { permission: 'read' },
      schema: { querystring: RequestLogQuery, response: { 200: RequestLogPage } },
    },
    async (request) => {
      const { page, size, ...filter } = request.query;
      const paging = toLimitOffset({ page, size }, 50);
      const found = await deps.requestLog.list(accountOf(request).accountId, filter, paging);
      return { ...found, page: paging.page, size: paging.size };
    },
  );

  app.get(
    '/api/settings',
    { config: { permission: 'read' }, schema: { response: { 200: Settings } } },
    async (request) => dashboard.settings(accountOf(request).accountId),
  );

  app.post(
    '/api/settings',
    {
      schema: { body: Settings, response: { 200: Settings } },
      config: {
        permission: 'team',
        audit: {
          action: 'account.shapes',
          target: ownAccount,
          before: (r) => dashboard.settings(webUserOf(r).accountId as number),
        },
      },
    },
    async (request) => dashboard.setShapes(accountOf(request).accountId, request.body.shapes),
  );

  app.get(
    '/api/docs',
    { config: { permission: 'read' }, schema: { response: { 200: DocLinks } } },
    async () => ({
      bases: deps.bases
        .filter((b) => b.kind === 'auth' || b.kind === 'giftcards' || b.kind === 'topups')
        .map((b) => ({
          title: `${b.kind === 'auth' ? 'Token service' : b.kind === 'giftcards' ? 'Gift cards' : 'Mobile top-ups'}${b.environment ? ` (${b.environment})` : ''}`,
          url: b.url,
          docs: `${b.url}/docs`,
        })),
      errors: deps.errorsUrl,
      openapi: 'openapi.json',
      sandboxTestValues: SANDBOX_TEST_VALUES,
    }),
  );
}

/**
 * The sandbox's documented test values, as the docs page lists them: each product's own (read where
 * they take effect, so the page cannot drift from the simulators) and the messages that fail.
 */
const SANDBOX_TEST_VALUES = [
  ...SANDBOX_TEST_PRODUCT_IDS.map((v) => ({ product: 'Gift cards', ...v })),
  {
    product: 'Gift cards',
    value: `recipientEmail at ${SANDBOX_BOUNCING_DOMAIN}`,
    outcome: 'the e-mail fails (a bounce): giftcard.delivery.failed',
  },
  {
    product: 'Gift cards',
    value: `recipientPhoneDetails number ending ${SANDBOX_FAILING_NUMBER_SUFFIX}`,
    outcome: 'the SMS fails: giftcard.delivery.failed, the smsFee refunded',
  },
  ...SANDBOX_TEST_NUMBERS.map((v) => ({ product: 'Top-ups', ...v })),
];

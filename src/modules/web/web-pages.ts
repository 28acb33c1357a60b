import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Base, WebPage } from '../../http/bases.ts';
import type { OpenApiRegistry } from '../../http/openapi.ts';
import { docsRoutes } from '../../http/openapi.ts';
import type { AccountsService } from '../accounts/index.ts';
import { installAuditHook } from '../audit/index.ts';
import type { FundingService } from '../funding/index.ts';
import type { GiftcardDelivery } from '../giftcards/index.ts';
import type { RequestLog } from '../request-log/index.ts';
import type { WebhookService } from '../webhooks/index.ts';
import { consoleRoutes } from './console/console-routes.ts';
import { consoleFundingRoutes } from './console/funding-routes.ts';
import { consoleTransactionRoutes } from './console/transaction-routes.ts';
import { dashboardRoutes } from './dashboard/dashboard-routes.ts';
import { dashboardFundingRoutes } from './dashboard/funding-routes.ts';
import { dashboardTransactionRoutes } from './dashboard/transaction-routes.ts';
import { dashboardWebhookRoutes } from './dashboard/webhooks-routes.ts';
import { openingRoutes } from './opening-routes.ts';
import { sessionRoutes } from './users/session-routes.ts';
import { teamRoutes } from './users/team-routes.ts';
import { installWebSession, type WebSessionOptions, webUserOf } from './users/web-session.ts';
import { installPageHeaders, pageRoutes } from './web-assets.ts';
import type { WebServices } from './web-services.ts';

/**
 * One page's plugin (dashboard or console), registered at its mount: security headers, the session
 * hook, the audit hook (every change, one line: modules/audit), the shell and bundle, sign-in/out,
 * the page's JSON endpoints and its OpenAPI document (`{base}/openapi.json`, `{base}/docs`).
 */
export async function webPages(
  app: FastifyInstance,
  deps: {
    page: WebPage;
    web: WebServices;
    accounts: AccountsService;
    requestLog: RequestLog;
    bases: Base[];
    openapi: OpenApiRegistry;
    errorsUrl: string;
    dashboardUrl: string;
    /** Gift card delivery: a transaction's delivery log, resend, branding (the dashboard). */
    delivery: GiftcardDelivery;
    /** Funding by bank transfer, receipts and statements (modules/funding). */
    funding: FundingService;
    /** Webhook endpoints and their deliveries (modules/webhooks): the dashboard's Webhooks page. */
    webhooks: WebhookService;
  },
) {
  const base = deps.bases.find((b) => b.kind === deps.page) as Base;
  const session: WebSessionOptions = {
    kind: deps.page === 'dashboard' ? 'customer' : 'operator',
    users: deps.web.users,
    cookieName: deps.page === 'dashboard' ? 'airgift_dashboard' : 'airgift_console',
    cookiePath: base.prefix || '/',
  };
  installPageHeaders(app);
  installWebSession(app, session);
  installAuditHook(app, {
    channel: deps.page,
    audit: deps.web.audit,
    // the signed-in user; on sign-in and on accepting an invitation, the user the answer names;
    // else nobody (a password reset asked for)
    actorOf: async (request, answer) => {
      const email = (answer as { email?: unknown } | null)?.email;
      const user =
        request.webUser ??
        (typeof email === 'string' ? await deps.web.users.find(session.kind, email) : null);
      return user
        ? { kind: user.kind, id: String(user.id), label: user.email }
        : { kind: 'anonymous', id: '-', label: 'anonymous' };
    },
    // a dashboard user changes their own account only
    accountOf: (request) => request.webUser?.accountId ?? null,
    onError: (error, line) => app.log.error({ err: error, action: line.action }, 'audit line not written'),
  });
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  await pageRoutes(
    app,
    deps.page,
    deps.page === 'dashboard' ? 'airgift dashboard' : 'airgift console',
    base.prefix,
  );
  sessionRoutes(typed, session, async (accountId) => (await deps.accounts.require(accountId)).name, base.url);
  teamRoutes(typed, { users: deps.web.users, page: deps.page, pageUrl: base.url });
  if (deps.page === 'dashboard') {
    dashboardRoutes(typed, {
      dashboard: deps.web.dashboard,
      accounts: deps.accounts,
      requestLog: deps.requestLog,
      bases: deps.bases,
      errorsUrl: deps.errorsUrl,
      delivery: deps.delivery,
    });
    dashboardFundingRoutes(typed, deps.funding);
    dashboardWebhookRoutes(typed, { webhooks: deps.webhooks });
    dashboardTransactionRoutes(typed, { detail: deps.web.transactionDetail, requestLog: deps.requestLog });
  } else {
    consoleRoutes(typed, {
      console: deps.web.console,
      search: deps.web.search,
      users: deps.web.users,
      audit: deps.web.audit,
      requestLog: deps.requestLog,
      dashboardUrl: deps.dashboardUrl,
    });
    consoleFundingRoutes(typed, deps.funding);
    consoleTransactionRoutes(typed, { detail: deps.web.transactionDetail, requestLog: deps.requestLog });
  }
  openingRoutes(typed, (request) =>
    deps.page === 'dashboard'
      ? deps.web.opening.ofAccount(webUserOf(request).accountId as number)
      : deps.web.opening.ofPlatform(),
  );
  docsRoutes(app, deps.openapi, { kind: deps.page, bases: deps.bases });
}

import type { TypedApp } from '../../../http/schemas.ts';
import type { RequestLog } from '../../request-log/index.ts';
import type { TransactionDetailService } from '../transactions/transaction-detail.ts';
import { TransactionDetail, TransactionDetailParams } from '../transactions/transaction-schemas.ts';
import { webUserOf } from '../users/web-session.ts';
import { EnvironmentQuery } from '../web-schemas.ts';

/**
 * A transaction's own page (`#/transaction?product=…&id=…`): one read of the signed-in user's own
 * account (another account's transaction is not found, 404). Its deliveries and their resend are the
 * delivery page's routes (dashboard-routes.ts); its codes stay behind the `codes` permission there.
 */
export function dashboardTransactionRoutes(
  app: TypedApp,
  deps: { detail: TransactionDetailService; requestLog: Pick<RequestLog, 'creatorOf'> },
) {
  app.get(
    '/api/transactions/:product/:transactionId',
    {
      schema: {
        params: TransactionDetailParams,
        querystring: EnvironmentQuery,
        response: { 200: TransactionDetail },
      },
      config: { permission: 'read' },
    },
    async (request) => {
      const accountId = webUserOf(request).accountId as number;
      const { product, transactionId } = request.params;
      const { environment } = request.query;
      const detail = await deps.detail.get(accountId, environment, product, transactionId);
      const requestId = await deps.requestLog.creatorOf(accountId, environment, product, detail);
      return { ...detail, requestId };
    },
  );
}

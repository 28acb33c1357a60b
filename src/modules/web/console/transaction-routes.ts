import { Type } from 'typebox';
import type { TypedApp } from '../../../http/schemas.ts';
import type { RequestLog } from '../../request-log/index.ts';
import type { TransactionDetailService } from '../transactions/transaction-detail.ts';
import { TransactionDetail, TransactionDetailParams } from '../transactions/transaction-schemas.ts';
import { EnvironmentQuery } from '../web-schemas.ts';

/**
 * One transaction of any account, as the dashboard's page shows it to the account (the same service
 * and schema): support reads what the customer reads. Linked from the console's transactions table.
 */
const Params = Type.Intersect([
  Type.Object({ accountId: Type.Integer({ minimum: 1 }) }),
  TransactionDetailParams,
]);

export function consoleTransactionRoutes(
  app: TypedApp,
  deps: { detail: TransactionDetailService; requestLog: Pick<RequestLog, 'creatorOf'> },
) {
  app.get(
    '/api/accounts/:accountId/transactions/:product/:transactionId',
    {
      schema: { params: Params, querystring: EnvironmentQuery, response: { 200: TransactionDetail } },
      config: { permission: 'read' },
    },
    async (request) => {
      const { accountId, product, transactionId } = request.params;
      const { environment } = request.query;
      const detail = await deps.detail.get(accountId, environment, product, transactionId);
      const requestId = await deps.requestLog.creatorOf(accountId, environment, product, detail);
      return { ...detail, requestId };
    },
  );
}

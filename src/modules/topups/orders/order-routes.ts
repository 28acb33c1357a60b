import { Paged, pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { baseUrlOf, principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { TopupOrders } from './order-adapter.ts';
import type { TopupReports } from './order-reports.ts';
import { ReportQuery, TopupBody, TopupTransaction, TransactionParams } from './order-schemas.ts';
import { topupView } from './order-view.ts';

/** POST /topups (scope `send-topups`) and the transaction reports (`read-topups-history`). */
export function topupRoutes(app: TypedApp, deps: { orders: TopupOrders; reports: TopupReports }) {
  const { orders, reports } = deps;

  app.post(
    '/topups',
    {
      schema: { body: TopupBody, response: { 200: TopupTransaction } },
      config: { access: { scope: 'send-topups' }, createsTransaction: true },
    },
    (request) => orders.place(principalOf(request), request.body, baseUrlOf(request)),
  );

  app.get(
    '/topups/reports/transactions',
    {
      schema: { querystring: ReportQuery, response: { 200: Paged(TopupTransaction) } },
      config: { access: { scope: 'read-topups-history' } },
    },
    async (request) => {
      const page = toLimitOffset(request.query, 100);
      const { rows, total } = await reports.list(principalOf(request), request.query, page);
      return pagedWrapper(
        rows.map((r) => topupView(r, baseUrlOf(request))),
        page,
        total,
      );
    },
  );

  app.get(
    '/topups/reports/transactions/:transactionId',
    {
      schema: { params: TransactionParams, response: { 200: TopupTransaction } },
      config: { access: { scope: 'read-topups-history' } },
    },
    async (request) =>
      topupView(await reports.get(principalOf(request), request.params.transactionId), baseUrlOf(request)),
  );
}

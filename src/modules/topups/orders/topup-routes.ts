import type { FastifyRequest } from 'fastify';
import { Paged, pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { TopupReports } from './topup-reports.ts';
import { ReportQuery, TopupBody, TopupTransaction, TransactionParams } from './topup-schemas.ts';
import type { TopupService } from './topup-service.ts';
import { topupView } from './topup-view.ts';

/** POST /topups (scope `send-topups`) and the transaction reports (`read-topups-history`). */
const baseUrlOf = (request: FastifyRequest) => request.base?.url ?? '';

export function topupRoutes(app: TypedApp, deps: { orders: TopupService; reports: TopupReports }) {
  const { orders, reports } = deps;

  app.post(
    '/topups',
    {
      schema: { body: TopupBody, response: { 200: TopupTransaction } },
      config: { access: { scope: 'send-topups' } },
    },
    async (request) => topupView(await orders.send(principalOf(request), request.body), baseUrlOf(request)),
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

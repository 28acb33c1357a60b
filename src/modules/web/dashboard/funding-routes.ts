import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../../http/schemas.ts';
import {
  AnnounceBody,
  FundingInstructions,
  type FundingService,
  Receipt,
  ReceiptParams,
  Statement,
  StatementQuery,
  Transfer,
  TransferPage,
  TransfersQuery,
} from '../../funding/index.ts';
import { webUserOf } from '../users/web-session.ts';

/**
 * The dashboard's funding: the Add funds page (the bank details of the account's currency, its
 * reference, announcing a transfer and the transfers' statuses), the receipt of each funding and the
 * monthly statement (JSON and CSV). The account is the session's; every route needs `money`.
 */
export function dashboardFundingRoutes(app: TypedApp, funding: FundingService) {
  const accountOf = (request: FastifyRequest) => webUserOf(request).accountId as number;

  app.get(
    '/api/funding',
    {
      schema: {
        summary:
          "Where to send a bank transfer: the bank details of the account's currency and its reference",
        response: { 200: FundingInstructions },
      },
      config: { permission: 'money' },
    },
    async (request) => funding.instructions(accountOf(request)),
  );

  app.get(
    '/api/funding/transfers',
    {
      schema: {
        summary: "The account's announced bank transfers, newest first, with their status",
        querystring: TransfersQuery,
        response: { 200: TransferPage },
      },
      config: { permission: 'money' },
    },
    async (request) => funding.transfers(accountOf(request), request.query),
  );

  app.post(
    '/api/funding/transfers',
    {
      schema: {
        summary: 'Announces a bank transfer to the live balance',
        description:
          'The operator confirms it once the money has arrived (a FUNDING entry) or rejects it with a reason; both are e-mailed.',
        body: AnnounceBody,
        response: { 200: Transfer },
      },
      config: {
        permission: 'money',
        audit: { action: 'transfer.announce', target: (_, made) => `transfer ${made?.transferId}` },
      },
    },
    async (request) => funding.announce(accountOf(request), webUserOf(request).id, request.body),
  );

  app.get(
    '/api/receipts/:entryId',
    {
      schema: {
        summary: 'The receipt of one FUNDING entry of the account',
        params: ReceiptParams,
        response: { 200: Receipt },
      },
      config: { permission: 'money' },
    },
    async (request) => funding.receipt(accountOf(request), request.params.entryId),
  );

  app.get(
    '/api/statement',
    {
      schema: {
        summary: "One month's statement of a balance: opening balance, every entry, closing balance",
        querystring: StatementQuery,
        response: { 200: Statement },
      },
      config: { permission: 'money' },
    },
    async (request) => funding.statement(accountOf(request), request.query.environment, request.query.month),
  );

  app.get(
    '/api/statement.csv',
    {
      schema: {
        summary: "One month's statement as CSV",
        description:
          'text/csv: a line OPENING_BALANCE, one line per ledger entry of the month (all of them), a line CLOSING_BALANCE',
        querystring: StatementQuery,
      },
      config: { permission: 'money' },
    },
    async (request, reply) => {
      const { environment, month } = request.query;
      const csv = await funding.statementCsv(accountOf(request), environment, month);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statement-${month}-${environment}.csv"`)
        .send(csv);
    },
  );
}

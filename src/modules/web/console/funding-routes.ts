import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../../http/schemas.ts';
import { type AuditedRequest, params } from '../../audit/index.ts';
import {
  BankDetails,
  BankDetailsBody,
  BankDetailsList,
  ConfirmedTransfer,
  CurrencyParams,
  type FundingService,
  QueuedTransfer,
  QueuedTransferPage,
  QueueQuery,
  RejectBody,
  TransferParams,
} from '../../funding/index.ts';
import { webUserOf } from '../users/web-session.ts';

/**
 * The console's funding: the queue of announced bank transfers across accounts, confirmed (a FUNDING
 * entry, once) or rejected with a reason by the signed-in operator, and the bank details per
 * currency. Reading needs `read`, changing `money`; each change is one audit line.
 */
export function consoleFundingRoutes(app: TypedApp, funding: FundingService) {
  const operator = (request: FastifyRequest) => webUserOf(request).email;
  const transfer = (r: AuditedRequest) => `transfer ${params(r).transferId}`;
  const before = (r: AuditedRequest) => funding.transfer(Number(params(r).transferId));

  app.get(
    '/api/funding/transfers',
    {
      schema: {
        summary: 'Announced bank transfers across accounts (status=announced: the queue, oldest first)',
        querystring: QueueQuery,
        response: { 200: QueuedTransferPage },
      },
      config: { permission: 'read' },
    },
    async (request) => funding.queue(request.query),
  );

  app.post(
    '/api/funding/transfers/:transferId/confirm',
    {
      schema: {
        summary: 'Confirms a transfer: one FUNDING entry on the live balance (409 once decided)',
        params: TransferParams,
        response: { 200: ConfirmedTransfer },
      },
      config: { permission: 'money', audit: { action: 'transfer.confirm', target: transfer, before } },
    },
    async (request) => funding.confirm(request.params.transferId, operator(request)),
  );

  app.post(
    '/api/funding/transfers/:transferId/reject',
    {
      schema: {
        summary: 'Rejects a transfer with a reason the customer reads (409 once decided)',
        params: TransferParams,
        body: RejectBody,
        response: { 200: QueuedTransfer },
      },
      config: { permission: 'money', audit: { action: 'transfer.reject', target: transfer, before } },
    },
    async (request) => funding.reject(request.params.transferId, operator(request), request.body.reason),
  );

  app.get(
    '/api/bank-details',
    {
      schema: { summary: 'The bank details of every currency', response: { 200: BankDetailsList } },
      config: { permission: 'read' },
    },
    async () => funding.bankDetails.list(),
  );

  app.post(
    '/api/bank-details/:currencyCode',
    {
      schema: {
        summary: "Sets a currency's bank details (what its customers' Add funds page shows)",
        params: CurrencyParams,
        body: BankDetailsBody,
        response: { 200: BankDetails },
      },
      config: {
        permission: 'money',
        audit: {
          action: 'bank-details.set',
          target: (r) => `bank details ${String(params(r).currencyCode).toUpperCase()}`,
          before: (r) => funding.bankDetails.get(String(params(r).currencyCode)),
        },
      },
    },
    async (request) => funding.bankDetails.set(request.params.currencyCode, request.body),
  );
}

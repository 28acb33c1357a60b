import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../http/schemas.ts';
import { type AuditedRequest, params } from '../audit/index.ts';
import {
  BankDetails,
  BankDetailsBody,
  BankDetailsList,
  ConfirmedTransfer,
  CurrencyParams,
  QueuedTransfer,
  QueuedTransferPage,
  QueueQuery,
  RejectBody,
  RemovedBankDetails,
  TransferParams,
} from './funding-schemas.ts';
import type { FundingService } from './funding-service.ts';

/**
 * The admin API's funding routes (and so the CLI's `airgift bank-details` and `airgift transfers`):
 * the bank details customers pay into, per currency, and the queue of announced transfers, confirmed
 * or rejected with the admin key (the console does the same as its operator). Every change is one
 * audit line (the admin base's audit hook, from `config.audit`).
 */
export function fundingAdminRoutes(app: TypedApp, funding: FundingService) {
  const currency = (r: AuditedRequest) => `bank details ${String(params(r).currencyCode).toUpperCase()}`;
  const transfer = (r: AuditedRequest) => `transfer ${params(r).transferId}`;
  const transferBefore = (r: AuditedRequest) => funding.transfer(Number(params(r).transferId));
  const byKey = (request: FastifyRequest) => `admin key ${request.adminKeyId ?? '-'}`;

  app.get(
    '/bank-details',
    {
      schema: {
        summary: 'The bank details of every currency',
        description: 'What the dashboard shows a customer whose account is in that currency.',
        response: { 200: BankDetailsList },
      },
    },
    async () => funding.bankDetails.list(),
  );

  app.put(
    '/bank-details/:currencyCode',
    {
      schema: {
        summary: "Sets a currency's bank details",
        description:
          'Where customers of accounts in this currency send their bank transfers (replaces the earlier ones).',
        params: CurrencyParams,
        body: BankDetailsBody,
        response: { 200: BankDetails },
      },
      config: {
        audit: {
          action: 'bank-details.set',
          target: currency,
          before: (r) => funding.bankDetails.get(String(params(r).currencyCode)),
        },
      },
    },
    async (request) => funding.bankDetails.set(request.params.currencyCode, request.body),
  );

  app.delete(
    '/bank-details/:currencyCode',
    {
      schema: {
        summary: "Removes a currency's bank details",
        description: 'Customers in this currency can no longer announce a transfer (BANK_DETAILS_NOT_SET).',
        params: CurrencyParams,
        response: { 200: RemovedBankDetails },
      },
      config: {
        audit: {
          action: 'bank-details.remove',
          target: currency,
          before: (r) => funding.bankDetails.get(String(params(r).currencyCode)),
        },
      },
    },
    async (request) => funding.bankDetails.remove(request.params.currencyCode),
  );

  app.get(
    '/funding/transfers',
    {
      schema: {
        summary: 'Bank transfers announced by customers',
        description: 'Filtered by status and account; `status=announced` is the queue, oldest first.',
        querystring: QueueQuery,
        response: { 200: QueuedTransferPage },
      },
    },
    async (request) => funding.queue(request.query),
  );

  app.post(
    '/funding/transfers/:transferId/confirm',
    {
      schema: {
        summary: 'Confirms an announced transfer',
        description:
          "The money has arrived: one FUNDING entry of the transfer's amount on the account's live balance, naming its reference. Once only: a second confirmation answers 409 TRANSFER_ALREADY_DECIDED.",
        params: TransferParams,
        response: { 200: ConfirmedTransfer },
      },
      config: { audit: { action: 'transfer.confirm', target: transfer, before: transferBefore } },
    },
    async (request) => funding.confirm(request.params.transferId, byKey(request)),
  );

  app.post(
    '/funding/transfers/:transferId/reject',
    {
      schema: {
        summary: 'Rejects an announced transfer',
        description:
          'No money moves; the customer reads the reason. 409 TRANSFER_ALREADY_DECIDED once decided.',
        params: TransferParams,
        body: RejectBody,
        response: { 200: QueuedTransfer },
      },
      config: { audit: { action: 'transfer.reject', target: transfer, before: transferBefore } },
    },
    async (request) => funding.reject(request.params.transferId, byKey(request), request.body.reason),
  );
}

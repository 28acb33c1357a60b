import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { principalOf } from '../../http/request-context.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { OrderBody } from './orders/order-request.ts';
import type { OrderService } from './orders/order-service.ts';
import { cardsJson, type TransactionReports } from './orders/transaction-reports.ts';
import * as S from './schemas.ts';

/** `POST /orders`, the transaction reports and the redeem codes (giftcards.md #14–#17). */
const TransactionParams = Type.Object({ transactionId: Type.String() });
const ReportsQuery = Type.Object({
  ...pagingQuery(200),
  customIdentifier: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  // Compatibility (decisions §9): the further filters Reloadly's Java SDK sends.
  status: Type.Optional(Type.String()),
  productId: Type.Optional(Type.Integer()),
  productName: Type.Optional(Type.String()),
  brandId: Type.Optional(Type.Integer()),
  brandName: Type.Optional(Type.String()),
  recipientEmail: Type.Optional(Type.String()),
});

export function orderRoutes(app: TypedApp, deps: { orders: OrderService; reports: TransactionReports }) {
  const { orders, reports } = deps;

  app.post('/orders', { schema: { body: OrderBody, response: { 200: S.Transaction } } }, (request) =>
    orders.place(principalOf(request), request.body),
  );

  app.get(
    '/reports/transactions',
    { schema: { querystring: ReportsQuery, response: { 200: Type.Array(S.Transaction) } } },
    (request) => reports.list(principalOf(request), { ...request.query, ...toLimitOffset(request.query) }),
  );

  app.get(
    '/reports/transactions/:transactionId',
    { schema: { params: TransactionParams, response: { 200: S.Transaction } } },
    (request) => reports.get(principalOf(request), request.params.transactionId),
  );

  app.get(
    '/orders/transactions/:transactionId/cards',
    { schema: { params: TransactionParams, response: { 200: S.RedeemCodes } } },
    async (request, reply) => {
      const cards = await reports.cards(principalOf(request), request.params.transactionId);
      // Written by hand: long digit strings must reach the client as exact JSON numbers.
      const text = cardsJson(cards);
      return reply
        .type('application/json; charset=utf-8')
        .serializer(() => text)
        .send(cards);
    },
  );
}

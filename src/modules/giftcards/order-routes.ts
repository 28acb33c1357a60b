import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { principalOf } from '../../http/request-context.ts';
import type { GiftcardServices } from './giftcard-services.ts';
import { OrderBody } from './orders/order-request.ts';
import { cardsJson } from './orders/transaction-reports.ts';
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

export function orderRoutes(app: FastifyInstance, giftcards: GiftcardServices) {
  const { orders, reports } = giftcards;

  app.post('/orders', { schema: { body: OrderBody, response: { 200: S.Transaction } } }, (request) =>
    orders.place(principalOf(request), request.body as Static<typeof OrderBody>),
  );

  app.get(
    '/reports/transactions',
    { schema: { querystring: ReportsQuery, response: { 200: Type.Array(S.Transaction) } } },
    (request) => {
      const q = request.query as Static<typeof ReportsQuery>;
      return reports.list(principalOf(request), { ...q, ...toLimitOffset(q) });
    },
  );

  app.get(
    '/reports/transactions/:transactionId',
    { schema: { params: TransactionParams, response: { 200: S.Transaction } } },
    (request) =>
      reports.get(principalOf(request), (request.params as Static<typeof TransactionParams>).transactionId),
  );

  app.get(
    '/orders/transactions/:transactionId/cards',
    { schema: { params: TransactionParams, response: { 200: S.RedeemCodes } } },
    async (request, reply) => {
      const { transactionId } = request.params as Static<typeof TransactionParams>;
      const cards = await reports.cards(principalOf(request), transactionId);
      // Written by hand: long digit strings must reach the client as exact JSON numbers.
      const text = cardsJson(cards);
      return reply
        .type('application/json; charset=utf-8')
        .serializer(() => text)
        .send(cards);
    },
  );
}

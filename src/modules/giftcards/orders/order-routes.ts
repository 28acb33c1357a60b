import { sendShaped, shapesOf } from '../../../http/account-shapes.ts';
import { pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { baseUrlOf, principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { GiftcardOrders } from './order-adapter.ts';
import { cardsJson, type TransactionReports } from './order-reports.ts';
import * as S from './order-schemas.ts';

/** `POST /orders`, the transaction reports and the redeem codes (giftcards.md #14–#17). */
export function orderRoutes(app: TypedApp, deps: { orders: GiftcardOrders; reports: TransactionReports }) {
  const { orders, reports } = deps;

  app.post(
    '/orders',
    {
      schema: { body: S.OrderBody, response: { 200: S.Transaction } },
      config: { createsTransaction: true },
    },
    (request) => orders.place(principalOf(request), request.body, baseUrlOf(request)),
  );

  app.get(
    '/reports/transactions',
    { schema: { querystring: S.ReportsQuery, response: { 200: S.TransactionList } } },
    async (request, reply) => {
      const page = toLimitOffset(request.query);
      const query = { ...request.query, ...page };
      if (shapesOf(request) === 'documented') {
        return sendShaped(reply, S.TransactionArray, await reports.list(principalOf(request), query));
      }
      // The service's shapes (http/account-shapes.ts): the paged wrapper, with the total count.
      const { items, total } = await reports.page(principalOf(request), query);
      return sendShaped(reply, S.TransactionPage, pagedWrapper(items, page, total));
    },
  );

  app.get(
    '/reports/transactions/:transactionId',
    { schema: { params: S.TransactionParams, response: { 200: S.Transaction } } },
    (request) => reports.get(principalOf(request), request.params.transactionId),
  );

  app.get(
    '/orders/transactions/:transactionId/cards',
    { schema: { params: S.TransactionParams, response: { 200: S.RedeemCodes } } },
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

import { principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import { TransactionParams } from '../orders/order-schemas.ts';
import * as S from './delivery-schemas.ts';
import type { GiftcardDelivery } from './delivery-services.ts';

/** A gift card order's delivery log and its resend. */
export function deliveryRoutes(app: TypedApp, delivery: GiftcardDelivery) {
  app.get(
    '/orders/transactions/:transactionId/deliveries',
    { schema: { params: TransactionParams, response: { 200: S.Deliveries } } },
    (request) => delivery.deliveries.list(principalOf(request), request.params.transactionId),
  );

  app.post(
    '/orders/transactions/:transactionId/deliveries',
    { schema: { params: TransactionParams, body: S.ResendBody, response: { 200: S.Deliveries } } },
    (request) =>
      delivery.deliveries.resend(
        principalOf(request),
        request.params.transactionId,
        delivery.parseResend(request.body ?? {}),
      ),
  );
}

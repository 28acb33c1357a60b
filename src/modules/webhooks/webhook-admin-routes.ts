import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { params } from '../audit/index.ts';
import type { WebhookService } from './webhook-service.ts';

/**
 * Webhooks on the admin API (the `airgift webhooks` commands): add, list and remove an account's
 * endpoints, read an endpoint's delivery log, replay a delivery, set an account's balance.low threshold.
 */
const Environment = Type.Union([Type.Literal('live'), Type.Literal('sandbox')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Endpoint = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  environment: Environment,
  url: Type.String(),
  events: Type.Array(Type.String()),
  createdAt: Type.String(),
  failingSince: Nullable(Type.String({ description: 'the first failed attempt since the last success' })),
  disabledAt: Nullable(Type.String({ description: 'set when every attempt failed for 3 days' })),
  disabledReason: Nullable(Type.String()),
});
const AddedEndpoint = Type.Intersect([
  Endpoint,
  Type.Object({ secret: Type.String({ description: 'the signing secret (whsec_…), shown this once' }) }),
]);
const AddBody = Type.Object(
  {
    accountId: Type.Integer({ minimum: 1 }),
    environment: Environment,
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);
const EndpointParams = Type.Object({ endpointId: Type.Integer({ minimum: 1 }) });
const DeliveryParams = Type.Object({ deliveryId: Type.Integer({ minimum: 1 }) });
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const Attempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  statusCode: NullableInt,
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
});
const Delivery = Type.Object({
  id: Type.Integer(),
  eventId: Type.String({ description: 'the webhook-id header' }),
  type: Type.String(),
  subjectId: Type.Integer({ description: 'the transaction id, or the ledger entry id of a balance event' }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastStatusCode: NullableInt,
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  createdAt: Type.String(),
  log: Type.Array(Attempt),
});
const DeliveryPage = Type.Object({
  items: Type.Array(Delivery),
  total: Type.Integer(),
  page: Type.Integer(),
  size: Type.Integer(),
});
const Replayed = Type.Object({
  id: Type.Integer(),
  eventId: Type.String(),
  status: Type.String(),
  nextAttemptAt: Nullable(Type.String()),
});
const ThresholdBody = Type.Object(
  {
    environment: Environment,
    threshold: Type.Union([
      Type.String({ pattern: '^\\d+(\\.\\d+)?$' }),
      Type.Number({ minimum: 0 }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
const Thresholds = Type.Object({
  accountId: Type.Integer(),
  thresholds: Type.Array(Type.Object({ environment: Environment, threshold: Type.Number() })),
  at: Type.String(),
});

export function webhookAdminRoutes(app: TypedApp, webhooks: WebhookService) {
  app.post(
    '/webhooks',
    {
      schema: { body: AddBody, response: { 200: AddedEndpoint } },
      // the answer's signing secret is masked in the line
      config: { audit: { action: 'webhook.add', target: (_, added) => `webhook endpoint ${added?.id}` } },
    },
    (request) => webhooks.add(request.body),
  );
  app.get(
    '/webhooks',
    {
      schema: {
        querystring: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1 })),
          environment: Type.Optional(Environment),
        }),
        response: { 200: Type.Object({ items: Type.Array(Endpoint) }) },
      },
    },
    (request) => webhooks.list(request.query),
  );
  app.delete(
    '/webhooks/:endpointId',
    {
      schema: { params: EndpointParams, response: { 200: Endpoint } },
      // the answer is the endpoint as it was
      config: {
        audit: { action: 'webhook.remove', target: (r) => `webhook endpoint ${params(r).endpointId}` },
      },
    },
    (request) => webhooks.remove(request.params.endpointId),
  );
  app.get(
    '/webhooks/:endpointId/deliveries',
    {
      schema: {
        params: EndpointParams,
        querystring: Type.Object(pagingQuery(200)),
        response: { 200: DeliveryPage },
      },
    },
    async (request) => {
      const page = toLimitOffset(request.query);
      const { items, total } = await webhooks.deliveries(request.params.endpointId, page);
      return { items, total, page: page.page, size: page.size };
    },
  );
  app.post(
    '/webhooks/deliveries/:deliveryId/replay',
    {
      schema: { params: DeliveryParams, response: { 200: Replayed } },
      config: {
        audit: { action: 'webhook.replay', target: (r) => `webhook delivery ${params(r).deliveryId}` },
      },
    },
    (request) => webhooks.replay(request.params.deliveryId),
  );
  app.put(
    '/accounts/:accountId/balance-threshold',
    {
      schema: {
        params: Type.Object({ accountId: Type.Integer({ minimum: 1 }) }),
        body: ThresholdBody,
        response: { 200: Thresholds },
      },
      config: {
        audit: { action: 'account.balance-threshold', target: (r) => `account ${params(r).accountId}` },
      },
    },
    (request) => {
      const { environment, threshold } = request.body;
      return webhooks.setBalanceThreshold(
        request.params.accountId,
        environment,
        threshold === null ? null : String(threshold),
      );
    },
  );
}

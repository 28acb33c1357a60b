import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import type { TypedApp } from '../../http/schemas.ts';
import { params } from '../audit/index.ts';
import * as schemas from './webhook-schemas.ts';
import type { WebhookService } from './webhook-service.ts';

/**
 * Webhooks on the admin API (the `airgift webhooks` commands): add, list and remove an account's
 * endpoints, read an endpoint's delivery log, replay a delivery, set an account's balance.low threshold.
 */
const { EndpointParams, DeliveryParams, WebhookUrl, WebhookEventPatterns } = schemas;
const Environment = schemas.WebhookEnvironment;
const Endpoint = schemas.WebhookEndpoint;
const AddedEndpoint = schemas.WebhookEndpointWithSecret;
const AddBody = Type.Object(
  {
    accountId: Type.Integer({ minimum: 1 }),
    environment: Environment,
    url: WebhookUrl,
    events: WebhookEventPatterns,
  },
  { additionalProperties: false },
);
const DeliveryPage = schemas.WebhookDeliveryPage;
const Replayed = schemas.QueuedDelivery;
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

import { toLimitOffset } from '../../../http/paging.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import { params } from '../../audit/index.ts';
import { EVENT_TYPES, type WebhookService } from '../../webhooks/index.ts';
import { webUserOf } from '../users/web-session.ts';
import { EnvironmentQuery } from '../web-schemas.ts';
import {
  AddWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  EndpointParams,
  QueuedDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookList,
} from './webhooks-schemas.ts';

/**
 * Webhooks self-service on the dashboard: the account's endpoints per environment, add (the signing
 * secret answered this once), remove, rotate the secret, send a test event, the delivery log and
 * replay. The webhook service is the admin API's (the same URL and event rules: target-guard.ts,
 * event-types.ts); every call is scoped to the signed-in user's account, so another account's
 * endpoint or delivery is not found (404). Secrets are never shown again: the list has none.
 */
export function dashboardWebhookRoutes(app: TypedApp, deps: { webhooks: WebhookService }) {
  const { webhooks } = deps;
  const ownerOf = (request: Parameters<typeof webUserOf>[0]) => ({
    accountId: webUserOf(request).accountId as number,
  });
  const endpoint = (r: Parameters<typeof params>[0]) => `webhook endpoint ${params(r).endpointId}`;
  // the endpoint as it is after the change, never its secret (the audit masks whsec_ anyway)
  const withoutSecret = (answer: unknown) => {
    const { secret: _secret, ...rest } = (answer ?? {}) as Record<string, unknown>;
    return rest;
  };

  app.get(
    '/api/webhooks',
    {
      schema: { querystring: EnvironmentQuery, response: { 200: WebhookList } },
      config: { permission: 'webhooks' },
    },
    async (request) => ({
      items: (await webhooks.list({ ...ownerOf(request), environment: request.query.environment })).items,
      eventTypes: [...EVENT_TYPES],
    }),
  );

  app.post(
    '/api/webhooks',
    {
      schema: { body: AddWebhookBody, response: { 200: WebhookEndpointWithSecret } },
      config: {
        permission: 'webhooks',
        audit: {
          action: 'webhook.add',
          target: (_, added) => `webhook endpoint ${added?.id}`,
          after: withoutSecret,
        },
      },
    },
    async (request) => webhooks.add({ ...ownerOf(request), ...request.body }),
  );

  app.post(
    '/api/webhooks/:endpointId/remove',
    {
      schema: { params: EndpointParams, response: { 200: WebhookEndpoint } },
      config: { permission: 'webhooks', audit: { action: 'webhook.remove', target: endpoint } },
    },
    async (request) => webhooks.remove(request.params.endpointId, ownerOf(request)),
  );

  app.post(
    '/api/webhooks/:endpointId/rotate-secret',
    {
      schema: { params: EndpointParams, response: { 200: WebhookEndpointWithSecret } },
      config: {
        permission: 'webhooks',
        audit: { action: 'webhook.rotate-secret', target: endpoint, after: withoutSecret },
      },
    },
    async (request) => webhooks.rotateSecret(request.params.endpointId, ownerOf(request)),
  );

  app.post(
    '/api/webhooks/:endpointId/test',
    {
      schema: { params: EndpointParams, response: { 200: QueuedDelivery } },
      config: { permission: 'webhooks', audit: { action: 'webhook.test', target: endpoint } },
    },
    async (request) => webhooks.sendTest(request.params.endpointId, ownerOf(request)),
  );

  app.get(
    '/api/webhooks/:endpointId/deliveries',
    {
      schema: {
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryPage },
      },
      config: { permission: 'webhooks' },
    },
    async (request) => {
      const paging = toLimitOffset(request.query, 20);
      const found = await webhooks.deliveries(request.params.endpointId, paging, ownerOf(request));
      return { ...found, page: paging.page, size: paging.size };
    },
  );

  app.post(
    '/api/webhooks/deliveries/:deliveryId/replay',
    {
      schema: { params: DeliveryParams, response: { 200: QueuedDelivery } },
      config: {
        permission: 'webhooks',
        audit: { action: 'webhook.replay', target: (r) => `webhook delivery ${params(r).deliveryId}` },
      },
    },
    async (request) => webhooks.replay(request.params.deliveryId, ownerOf(request)),
  );
}

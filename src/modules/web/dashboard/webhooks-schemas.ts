import { Type } from 'typebox';
import { WebhookEndpoint, WebhookEventPatterns, WebhookUrl } from '../../webhooks/webhook-schemas.ts';
import { Environment } from '../web-schemas.ts';

/**
 * The dashboard's webhook JSON (webhooks-routes.ts): the resources are the admin API's own
 * (modules/webhooks/webhook-schemas.ts), the account being the signed-in user's, never the request's.
 */
export * from '../../webhooks/webhook-schemas.ts';

export const WebhookList = Type.Object({
  items: Type.Array(WebhookEndpoint),
  eventTypes: Type.Array(Type.String(), {
    description: 'the event types an endpoint may subscribe to (a pattern may end in *)',
  }),
});

export const AddWebhookBody = Type.Object(
  { environment: Environment, url: WebhookUrl, events: WebhookEventPatterns },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
});

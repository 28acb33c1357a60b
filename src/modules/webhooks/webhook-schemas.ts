import { Type } from 'typebox';

/**
 * The webhook resources as the operator's admin API and the account dashboard show them: an
 * endpoint, the signing secret shown once, a delivery with its attempts, a replay. Like every
 * `*-schemas.ts` it imports only typebox, so the dashboard's browser code can read its types.
 */
export const WebhookEnvironment = Type.Union([Type.Literal('live'), Type.Literal('sandbox')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const WebhookEndpoint = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  environment: WebhookEnvironment,
  url: Type.String(),
  events: Type.Array(Type.String()),
  createdAt: Type.String(),
  failingSince: Nullable(Type.String({ description: 'the first failed attempt since the last success' })),
  disabledAt: Nullable(Type.String({ description: 'set when every attempt failed for 3 days' })),
  disabledReason: Nullable(Type.String()),
});

export const WebhookEndpointWithSecret = Type.Intersect([
  WebhookEndpoint,
  Type.Object({ secret: Type.String({ description: 'the signing secret (whsec_…), shown this once' }) }),
]);

/** The URL and the event patterns of a new endpoint (the same limits on both channels). */
export const WebhookUrl = Type.String({ minLength: 1, maxLength: 2000 });
export const WebhookEventPatterns = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 20,
});

export const EndpointParams = Type.Object({ endpointId: Type.Integer({ minimum: 1 }) });
export const DeliveryParams = Type.Object({ deliveryId: Type.Integer({ minimum: 1 }) });

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  statusCode: NullableInt,
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
});

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  eventId: Type.String({ description: 'the webhook-id header' }),
  type: Type.String(),
  subjectId: Type.Integer({
    description:
      'the transaction id, the ledger entry id of a balance event, the endpoint id of a webhook.test',
  }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastStatusCode: NullableInt,
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  createdAt: Type.String(),
  log: Type.Array(WebhookAttempt),
});

export const WebhookDeliveryPage = Type.Object({
  items: Type.Array(WebhookDelivery),
  total: Type.Integer(),
  page: Type.Integer(),
  size: Type.Integer(),
});

/** A delivery made due now: a replay, or a test event. */
export const QueuedDelivery = Type.Object({
  id: Type.Integer(),
  eventId: Type.String(),
  status: Type.String(),
  nextAttemptAt: Nullable(Type.String()),
});

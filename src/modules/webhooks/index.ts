/**
 * Webhooks (Standard Webhooks): endpoints per account and environment, the outbox the database
 * triggers of every state change write (migration 0010), signed delivery with retries by the worker,
 * the delivery log and replay on the admin API. docs/webhooks.md is the user's guide.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { derivedKey, textSealer } from '../../lib/sealed-text.ts';
import { createWebhookDelivery, type PayloadRenderers } from './webhook-delivery.ts';
import { webhookSender } from './webhook-sender.ts';
import { createWebhookService } from './webhook-service.ts';
import { webhooksRepository } from './webhooks-repository.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The key the signing secrets are sealed with is derived from this one (the card codes key). */
  loadKey: () => Promise<Buffer>;
  allowPrivate: boolean;
  /** Extra CA certificates (PEM) trusted for endpoints, besides the system's. */
  ca?: string;
  render: PayloadRenderers;
  accountExists: (accountId: number) => Promise<boolean>;
  onDisabled?: (endpoint: { id: number; accountId: number; url: string; reason: string }) => void;
}

/**
 * @example
 * const webhooks = createWebhooks({ db, clock, loadKey, allowPrivate: false, render, accountExists });
 * await webhooks.service.add({ accountId: 2, environment: 'sandbox', url, events: ['topup.*'] });
 * await webhooks.delivery.attempt(deliveryId); // the worker's job
 */
export function createWebhooks(deps: WebhookDeps) {
  const repository = webhooksRepository(deps.db);
  const secrets = textSealer(derivedKey(deps.loadKey, 'airgift webhook signing secrets'));
  const service = createWebhookService({
    repository,
    secrets,
    clock: deps.clock,
    allowPrivate: deps.allowPrivate,
    accountExists: deps.accountExists,
  });
  // who hears of an endpoint disabled after 3 days of failures (main.ts logs it)
  let disabledListener = deps.onDisabled;
  const delivery = createWebhookDelivery({
    repository,
    secrets,
    clock: deps.clock,
    send: webhookSender({ timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivate: deps.allowPrivate, ca: deps.ca }),
    render: deps.render,
    onDisabled: (endpoint) => disabledListener?.(endpoint),
  });
  return {
    service,
    delivery,
    /** Sets who hears of an endpoint disabled for failing 3 days. */
    onEndpointDisabled(listener: NonNullable<WebhookDeps['onDisabled']>) {
      disabledListener = listener;
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
export { EVENT_TYPES } from './event-types.ts';
export { nominalRetryDelayMs, RETRIES } from './retry-schedule.ts';
export { signatureOf } from './signing.ts';
export { webhookAdminRoutes } from './webhook-admin-routes.ts';
export type { WebhookService } from './webhook-service.ts';

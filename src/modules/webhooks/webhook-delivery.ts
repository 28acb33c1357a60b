import type { Environment } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { currencyName } from '../../lib/currencies.ts';
import { dec } from '../../lib/money.ts';
import type { TextSealer } from '../../lib/sealed-text.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import { TEST_EVENT } from './event-types.ts';
import { DISABLE_AFTER_MS, retryDelayMs } from './retry-schedule.ts';
import { signedHeaders } from './signing.ts';
import type { WebhookSender } from './webhook-sender.ts';
import type { DeliveryJob, WebhooksRepository } from './webhooks-repository.ts';

/**
 * One attempt of one delivery (the worker's webhook job): the event's payload, rendered from the
 * resource the API shows (`render`: the reports' transaction views; the Balance resource), signed the
 * Standard Webhooks way, POSTed (webhook-sender.ts), and the outcome written with the next attempt
 * (retry-schedule.ts) or the end of the delivery; an endpoint failing for 3 days is disabled and
 * `onDisabled` hears of it (the server logs it; the endpoint list shows it).
 *
 * The body: `{"type":"topup.successful","timestamp":"2026-…Z","data":{…the transaction…}}`.
 *
 * @example
 * const delivery = createWebhookDelivery({ repository, secrets, clock, send, render, onDisabled });
 * await delivery.attempt(deliveryId);
 */
export interface PayloadRenderers {
  /** The gift card Transaction of the reports endpoint. */
  giftcardOrder(accountId: number, environment: Environment, id: number): Promise<object>;
  /** One message of a gift card order's delivery log (GET …/deliveries), by the message's id. */
  giftcardDelivery(accountId: number, environment: Environment, messageId: number): Promise<object>;
  /** The Top-up transaction of the reports endpoint. */
  topup(accountId: number, environment: Environment, id: number): Promise<object>;
}

export interface WebhookDeliveryDeps {
  repository: WebhooksRepository;
  secrets: TextSealer;
  clock: Clock;
  send: WebhookSender;
  render: PayloadRenderers;
  onDisabled?: (endpoint: { id: number; accountId: number; url: string; reason: string }) => void;
  random?: () => number;
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { repository, clock } = deps;

  /** The event's `data`: the resource as the API shows it, in the state the event tells of. */
  async function dataOf(event: DeliveryJob['event']): Promise<object> {
    if (event.type === TEST_EVENT) {
      return {
        endpointId: event.subjectId,
        environment: event.environment,
        message: 'A test event: this endpoint receives and verifies airgift webhooks.',
      };
    }
    if (event.type.startsWith('giftcard.delivery.')) {
      return deps.render.giftcardDelivery(event.accountId, event.environment, event.subjectId);
    }
    const [scope, ...rest] = event.type.split('.');
    const state = rest.at(-1)?.toUpperCase();
    if (scope === 'giftcard') {
      const view = await deps.render.giftcardOrder(event.accountId, event.environment, event.subjectId);
      return { ...view, status: state };
    }
    if (scope === 'topup') {
      const view = await deps.render.topup(event.accountId, event.environment, event.subjectId);
      return { ...view, status: state };
    }
    const entry = await repository.ledgerEntry(event.subjectId);
    if (!entry) throw new Error(`balance event ${event.id}: no ledger entry ${event.subjectId}`);
    return {
      environment: event.environment,
      balance: dec(entry.balance_after).toNumber(),
      currencyCode: entry.currency_code,
      currencyName: currencyName(entry.currency_code),
      updatedAt: formatDateTime(entry.created_at),
    };
  }

  return {
    async attempt(deliveryId: number): Promise<void> {
      const job = await repository.job(deliveryId);
      if (job?.delivery.status !== 'PENDING') return;
      const { delivery, event, endpoint } = job;
      if (endpoint.removed_at || endpoint.disabled_at) {
        await repository.abandon(delivery.id, endpoint.removed_at ? 'endpoint removed' : 'endpoint disabled');
        return;
      }
      const body = JSON.stringify({
        type: event.type,
        timestamp: event.createdAt.toISOString(),
        data: await dataOf(event),
      });
      const at = clock.now();
      const secret = await deps.secrets.open(endpoint.secret_sealed);
      const outcome = await deps.send(endpoint.url, signedHeaders(secret, event.id, at, body), body);
      const failed = outcome.error !== null;
      const delay = failed ? retryDelayMs(delivery.attempts + 1, deps.random) : null;
      const failingSince = endpoint.failing_since ?? at;
      const disable =
        failed && at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS
          ? `every attempt failed since ${failingSince.toISOString()} (3 days); last: ${outcome.error}`
          : null;
      const recorded = await repository.recordAttempt({
        delivery,
        endpointId: endpoint.id,
        at,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        nextAttemptAt: delay === null || disable ? null : new Date(at.getTime() + delay),
        disable,
      });
      if (recorded && disable) {
        deps.onDisabled?.({
          id: endpoint.id,
          accountId: endpoint.account_id,
          url: endpoint.url,
          reason: disable,
        });
      }
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

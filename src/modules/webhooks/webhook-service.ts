import type { Environment } from '../../db/schema.ts';
import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { dec } from '../../lib/money.ts';
import type { TextSealer } from '../../lib/sealed-text.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import { checkPatterns, TEST_EVENT } from './event-types.ts';
import { newSigningSecret } from './signing.ts';
import { checkTargetUrl } from './target-guard.ts';
import type { DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks-repository.ts';

/**
 * The operator's side of webhooks (admin API, CLI): endpoints per account and environment, each with
 * its own signing secret (returned once, when it is added, and stored sealed), the delivery log with
 * every attempt, a manual replay, and the balance.low threshold of an account.
 *
 * @example
 * const added = await webhooks.add({ accountId: 2, environment: 'sandbox',
 *   url: 'https://hooks.example.com/airgift', events: ['giftcard.order.*', 'topup.*'] });
 * added.secret; // 'whsec_…', shown this once
 */
export interface WebhookServiceDeps {
  repository: WebhooksRepository;
  secrets: TextSealer;
  clock: Clock;
  allowPrivate: boolean;
  accountExists: (accountId: number) => Promise<boolean>;
}

/** Who may touch an endpoint on the dashboard: its own account only (the operator: any, no owner). */
export interface Owner {
  accountId: number;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function endpointView(row: EndpointRow) {
  return {
    id: row.id,
    accountId: row.account_id,
    environment: row.environment,
    url: row.url,
    events: row.events,
    createdAt: row.created_at.toISOString(),
    failingSince: iso(row.failing_since),
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { repository, clock } = deps;

  async function requireAccount(accountId: number) {
    if (!(await deps.accountExists(accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
  }

  /** An endpoint not removed; with `owner`, only one of that account (another's is not found either). */
  async function requireEndpoint(id: number, owner?: Owner) {
    const row = await repository.endpoint(id);
    if (!row || (owner && row.account_id !== owner.accountId)) {
      throw new AppError('RESOURCE_NOT_FOUND', `No webhook endpoint ${id}`);
    }
    return row;
  }

  const queued = (row: DeliveryRow) => ({
    id: row.id,
    eventId: `evt_${row.event_id}`,
    status: row.status,
    nextAttemptAt: iso(row.next_attempt_at),
  });

  return {
    async add(input: { accountId: number; environment: Environment; url: string; events: string[] }) {
      await requireAccount(input.accountId);
      const url = checkTargetUrl(input.url, { allowPrivate: deps.allowPrivate });
      const events = checkPatterns(input.events);
      const secret = newSigningSecret();
      const row = await repository.insertEndpoint({
        account_id: input.accountId,
        environment: input.environment,
        url,
        events,
        secret_sealed: await deps.secrets.seal(secret),
        created_at: clock.now(),
        disabled_reason: null,
      });
      return { ...endpointView(row), secret };
    },

    async list(filter: { accountId?: number; environment?: Environment }) {
      return { items: (await repository.endpoints(filter)).map(endpointView) };
    },

    async remove(id: number, owner?: Owner) {
      if (owner) await requireEndpoint(id, owner);
      const row = await repository.removeEndpoint(id, clock.now());
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No webhook endpoint ${id}`);
      return endpointView(row);
    },

    /** The delivery log of an endpoint, newest first, each with its attempts. */
    async deliveries(endpointId: number, page: { limit: number; offset: number }, owner?: Owner) {
      await requireEndpoint(endpointId, owner);
      const { rows, total } = await repository.deliveries(endpointId, page);
      return {
        total,
        items: rows.map((d) => ({
          id: d.id,
          eventId: `evt_${d.event_id}`,
          type: d.type,
          subjectId: d.subject_id,
          status: d.status,
          attempts: d.attempts,
          nextAttemptAt: iso(d.next_attempt_at),
          lastStatusCode: d.last_status_code,
          lastError: d.last_error,
          deliveredAt: iso(d.delivered_at),
          createdAt: d.created_at.toISOString(),
          log: d.attempts_log.map((a) => ({
            attempt: a.attempt,
            at: a.attempted_at.toISOString(),
            statusCode: a.status_code,
            latencyMs: a.latency_ms,
            error: a.error,
            nextAttemptAt: iso(a.next_attempt_at),
          })),
        })),
      };
    },

    /** Sends a delivery's event again to its endpoint (same webhook-id), as a new delivery due now. */
    async replay(deliveryId: number, owner?: Owner) {
      if (owner) {
        const endpointId = await repository.endpointOfDelivery(deliveryId);
        if (endpointId === undefined)
          throw new AppError('RESOURCE_NOT_FOUND', `No webhook delivery ${deliveryId}`);
        await requireEndpoint(endpointId, owner).catch(() => {
          throw new AppError('RESOURCE_NOT_FOUND', `No webhook delivery ${deliveryId}`);
        });
      }
      const row = await repository.replay(deliveryId, clock.now());
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No webhook delivery ${deliveryId}`);
      const endpoint = await requireEndpoint(row.endpoint_id);
      if (endpoint.disabled_at) {
        await repository.abandon(row.id, 'endpoint disabled');
        throw new AppError('INVALID_REQUEST', `Webhook endpoint ${endpoint.id} is disabled`);
      }
      return queued(row);
    },

    /**
     * A new signing secret for an endpoint, returned this once; the old one stops at once (every
     * attempt from now on, retries of older events included, is signed with the new one).
     */
    async rotateSecret(id: number, owner?: Owner) {
      await requireEndpoint(id, owner);
      const secret = newSigningSecret();
      const row = await repository.setSecret(id, await deps.secrets.seal(secret));
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No webhook endpoint ${id}`);
      return { ...endpointView(row), secret };
    },

    /**
     * A `webhook.test` event to this one endpoint, whatever its event patterns: a real delivery of
     * the outbox, due now, signed and retried like any other (its `data` names the endpoint).
     */
    async sendTest(id: number, owner?: Owner) {
      const endpoint = await requireEndpoint(id, owner);
      if (endpoint.disabled_at) {
        throw new AppError('INVALID_REQUEST', `Webhook endpoint ${endpoint.id} is disabled`);
      }
      return queued(await repository.insertTestEvent(endpoint, TEST_EVENT, clock.now()));
    },

    /** balance.low fires when a debit takes the balance below `threshold` (null: never). */
    async setBalanceThreshold(accountId: number, environment: Environment, threshold: string | null) {
      await requireAccount(accountId);
      if (threshold !== null && (!/^\d+(\.\d+)?$/.test(threshold) || dec(threshold).isNegative())) {
        throw new AppError('INVALID_REQUEST', 'The threshold is an amount >= 0', [
          { field: 'threshold', issue: threshold },
        ]);
      }
      await repository.setThreshold(
        accountId,
        environment,
        threshold === null ? null : dec(threshold).toFixed(),
      );
      const all = await repository.thresholds(accountId);
      return {
        accountId,
        thresholds: all.map((t) => ({ environment: t.environment, threshold: dec(t.threshold).toNumber() })),
        at: formatDateTime(clock.now()),
      };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

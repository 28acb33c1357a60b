import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  Database,
  Environment,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from '../../db/schema.ts';

/**
 * The webhook tables (migration 0010): endpoints, balance thresholds, the outbox (events, written by
 * the database triggers of the state changes), deliveries and their attempts. The only SQL of the module.
 */
export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** A delivery with what its attempt needs: the event and the endpoint. */
export interface DeliveryJob {
  delivery: DeliveryRow;
  event: {
    id: number;
    accountId: number;
    environment: Environment;
    type: string;
    subjectId: number;
    createdAt: Date;
  };
  endpoint: EndpointRow;
}

/** What one attempt changes, written in one transaction. */
export interface AttemptRecord {
  delivery: DeliveryRow;
  endpointId: number;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** null: no retry (delivered, or the schedule is over). */
  nextAttemptAt: Date | null;
  /** Disable the endpoint with this reason (it has failed for 3 days). */
  disable: string | null;
}

export function webhooksRepository(db: Kysely<Database>) {
  return {
    async insertEndpoint(values: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
      return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async endpoints(filter: { accountId?: number; environment?: Environment }): Promise<EndpointRow[]> {
      let q = db.selectFrom('webhook_endpoints').selectAll().where('removed_at', 'is', null);
      if (filter.accountId !== undefined) q = q.where('account_id', '=', filter.accountId);
      if (filter.environment !== undefined) q = q.where('environment', '=', filter.environment);
      return q.orderBy('id').execute();
    },

    async endpoint(id: number): Promise<EndpointRow | undefined> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
    },

    /** A new sealed signing secret for an endpoint not removed. */
    async setSecret(id: number, sealed: string): Promise<EndpointRow | undefined> {
      return db
        .updateTable('webhook_endpoints')
        .set({ secret_sealed: sealed })
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** The endpoint a delivery goes to. */
    async endpointOfDelivery(deliveryId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('endpoint_id')
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      return row?.endpoint_id;
    },

    /**
     * An event for one endpoint only (the test event, its subject the endpoint) and its delivery, due
     * at `at`, in one transaction: the worker sends it like any event of the outbox.
     */
    async insertTestEvent(endpoint: EndpointRow, type: string, at: Date): Promise<DeliveryRow> {
      return db.transaction().execute(async (trx) => {
        const event = await trx
          .insertInto('webhook_events')
          .values({
            account_id: endpoint.account_id,
            environment: endpoint.environment,
            type,
            subject_id: endpoint.id,
            created_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return trx
          .insertInto('webhook_deliveries')
          .values({
            event_id: event.id,
            endpoint_id: endpoint.id,
            status: 'PENDING',
            next_attempt_at: at,
            created_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    /** Removes an endpoint; its pending deliveries end FAILED. */
    async removeEndpoint(id: number, at: Date): Promise<EndpointRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx
          .updateTable('webhook_endpoints')
          .set({ removed_at: at })
          .where('id', '=', id)
          .where('removed_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (removed) await failPending(trx, id, 'endpoint removed');
        return removed;
      });
    },

    async setThreshold(accountId: number, environment: Environment, threshold: string | null) {
      if (threshold === null) {
        await db
          .deleteFrom('webhook_balance_thresholds')
          .where('account_id', '=', accountId)
          .where('environment', '=', environment)
          .execute();
        return;
      }
      await db
        .insertInto('webhook_balance_thresholds')
        .values({ account_id: accountId, environment, threshold })
        .onConflict((oc) => oc.columns(['account_id', 'environment']).doUpdateSet({ threshold }))
        .execute();
    },

    async thresholds(accountId: number) {
      return db
        .selectFrom('webhook_balance_thresholds')
        .select(['environment', 'threshold'])
        .where('account_id', '=', accountId)
        .execute();
    },

    async job(deliveryId: number): Promise<DeliveryJob | undefined> {
      const delivery = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      if (!delivery) return undefined;
      const event = await db
        .selectFrom('webhook_events')
        .selectAll()
        .where('id', '=', delivery.event_id)
        .executeTakeFirstOrThrow();
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', delivery.endpoint_id)
        .executeTakeFirstOrThrow();
      return {
        delivery,
        endpoint,
        event: {
          id: event.id,
          accountId: event.account_id,
          environment: event.environment,
          type: event.type,
          subjectId: event.subject_id,
          createdAt: event.created_at,
        },
      };
    },

    /**
     * Writes an attempt and its consequences in one transaction: the log row, the delivery (only if it
     * is still the pending one this attempt was made for: an attempt made twice after a lease ran out
     * counts once), the endpoint's failing_since, and its disabling. False when the delivery had moved on.
     */
    async recordAttempt(r: AttemptRecord): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const attempt = r.delivery.attempts + 1;
        const delivered = r.error === null;
        const moved = await trx
          .updateTable('webhook_deliveries')
          .set({
            attempts: attempt,
            status: delivered ? 'DELIVERED' : r.nextAttemptAt ? 'PENDING' : 'FAILED',
            next_attempt_at: delivered ? null : r.nextAttemptAt,
            last_status_code: r.statusCode,
            last_error: r.error,
            delivered_at: delivered ? r.at : null,
          })
          .where('id', '=', r.delivery.id)
          .where('status', '=', 'PENDING')
          .where('attempts', '=', r.delivery.attempts)
          .returning('id')
          .executeTakeFirst();
        if (!moved) return false;
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: r.delivery.id,
            attempt,
            attempted_at: r.at,
            status_code: r.statusCode,
            latency_ms: r.latencyMs,
            error: r.error,
            next_attempt_at: delivered ? null : r.nextAttemptAt,
          })
          .execute();
        if (delivered) {
          await trx
            .updateTable('webhook_endpoints')
            .set({ failing_since: null })
            .where('id', '=', r.endpointId)
            .execute();
        } else {
          await trx
            .updateTable('webhook_endpoints')
            .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(r.at)) }))
            .where('id', '=', r.endpointId)
            .execute();
        }
        if (r.disable) {
          await trx
            .updateTable('webhook_endpoints')
            .set({ disabled_at: r.at, disabled_reason: r.disable })
            .where('id', '=', r.endpointId)
            .where('disabled_at', 'is', null)
            .execute();
          await failPending(trx, r.endpointId, 'endpoint disabled');
        }
        return true;
      });
    },

    /** Ends a pending delivery whose endpoint is gone or disabled. */
    async abandon(deliveryId: number, reason: string) {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'FAILED', next_attempt_at: null, last_error: reason })
        .where('id', '=', deliveryId)
        .where('status', '=', 'PENDING')
        .execute();
    },

    async deliveries(endpointId: number, page: { limit: number; offset: number }) {
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .selectAll('d')
        .select(['e.type', 'e.subject_id'])
        .where('d.endpoint_id', '=', endpointId)
        .orderBy('d.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const attempts =
        rows.length === 0
          ? []
          : await db
              .selectFrom('webhook_attempts')
              .selectAll()
              .where(
                'delivery_id',
                'in',
                rows.map((r) => r.id),
              )
              .orderBy('id')
              .execute();
      const total = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirstOrThrow();
      return {
        total: Number(total.n),
        rows: rows.map((r) => ({ ...r, attempts_log: attempts.filter((a) => a.delivery_id === r.id) })),
      };
    },

    /** A new pending delivery of a delivery's event to the same endpoint, due at `at`. */
    async replay(deliveryId: number, at: Date): Promise<DeliveryRow | undefined> {
      const old = await db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'endpoint_id'])
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      if (!old) return undefined;
      return db
        .insertInto('webhook_deliveries')
        .values({ ...old, status: 'PENDING', next_attempt_at: at, created_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The balance a ledger entry left (balance events' payload). */
    async ledgerEntry(id: number) {
      return db
        .selectFrom('ledger_entries')
        .select(['id', 'kind', 'amount', 'balance_after', 'currency_code', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}

async function failPending(trx: Kysely<Database>, endpointId: number, reason: string) {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'FAILED', next_attempt_at: null, last_error: reason })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'PENDING')
    .execute();
}

export type WebhooksRepository = ReturnType<typeof webhooksRepository>;

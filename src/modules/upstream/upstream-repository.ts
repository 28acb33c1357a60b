import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  UpstreamCallState,
  UpstreamCallsTable,
  UpstreamProduct,
  UpstreamsTable,
} from '../../db/schema.ts';

/**
 * The upstreams' SQL (migration 0009): one configured upstream per product, its health, and the
 * calls made to it per transaction of ours (`upstream_calls`, both products). Writes that belong
 * to an order's step take that step's transaction (`trx`), so they commit or roll back with it.
 */
export type UpstreamRow = Selectable<UpstreamsTable>;
export type UpstreamCallRow = Selectable<UpstreamCallsTable>;

export interface UpstreamSettings {
  base_url: string;
  auth_url: string;
  client_id: string;
  client_secret: string;
  ca_pem: string | null;
  margin_percent: string;
}

/** Health writes of a success are skipped when the last one is younger than this (no hot row). */
const SUCCESS_WRITE_EVERY_MS = 10_000;

export function upstreamRepository(db: Kysely<Database>) {
  return {
    get(product: UpstreamProduct, trx: Kysely<Database> = db): Promise<UpstreamRow | undefined> {
      return trx.selectFrom('upstreams').selectAll().where('product', '=', product).executeTakeFirst();
    },

    all(): Promise<UpstreamRow[]> {
      return db.selectFrom('upstreams').selectAll().orderBy('product').execute();
    },

    /** Sets an upstream; a new configuration starts with a clean health. */
    async put(product: UpstreamProduct, settings: UpstreamSettings, now: Date): Promise<void> {
      const fresh = {
        ...settings,
        last_error: null,
        last_error_at: null,
        last_success_at: null,
        insufficient_balance_at: null,
        updated_at: now,
      };
      await db
        .insertInto('upstreams')
        .values({ product, ...fresh })
        .onConflict((oc) => oc.column('product').doUpdateSet(fresh))
        .execute();
    },

    async remove(product: UpstreamProduct): Promise<boolean> {
      const r = await db.deleteFrom('upstreams').where('product', '=', product).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** What the sync writes after a catalogue sync. */
    async markSynced(product: UpstreamProduct, at: Date, trx: Kysely<Database> = db): Promise<void> {
      await trx.updateTable('upstreams').set({ last_sync_at: at }).where('product', '=', product).execute();
    },

    /** A call that went wrong (unknown outcome, refusal of our own account, unreachable). */
    async noteError(trx: Kysely<Database>, product: UpstreamProduct, error: string, at: Date) {
      await trx
        .updateTable('upstreams')
        .set({ last_error: error.slice(0, 1000), last_error_at: at })
        .where('product', '=', product)
        .execute();
    },

    /** The upstream refused an order for its own balance: flagged until it takes one again. */
    async noteInsufficientBalance(trx: Kysely<Database>, product: UpstreamProduct, at: Date) {
      await trx
        .updateTable('upstreams')
        .set({ insufficient_balance_at: at, last_error: 'INSUFFICIENT_BALANCE', last_error_at: at })
        .where('product', '=', product)
        .execute();
    },

    /** A call that worked; written at most every 10 s unless it clears the balance flag. */
    async noteSuccess(trx: Kysely<Database>, product: UpstreamProduct, at: Date) {
      const before = new Date(at.getTime() - SUCCESS_WRITE_EVERY_MS);
      await trx
        .updateTable('upstreams')
        .set({ last_success_at: at, insufficient_balance_at: null })
        .where('product', '=', product)
        .where((eb) =>
          eb.or([
            eb('last_success_at', 'is', null),
            eb('last_success_at', '<', before),
            eb('insufficient_balance_at', 'is not', null),
          ]),
        )
        .execute();
    },

    call(
      trx: Kysely<Database>,
      product: UpstreamProduct,
      transactionId: number,
    ): Promise<UpstreamCallRow | undefined> {
      return trx
        .selectFrom('upstream_calls')
        .selectAll()
        .where('product', '=', product)
        .where('transaction_id', '=', transactionId)
        .executeTakeFirst();
    },

    /** Writes the call's state (the first write inserts it). `attempt` counts one more request sent. */
    async saveCall(
      trx: Kysely<Database>,
      call: {
        product: UpstreamProduct;
        transactionId: number;
        customIdentifier: string;
        state: UpstreamCallState;
        upstreamTransactionId?: number | null;
        upstreamStatus?: string | null;
        lastError?: string | null;
        attempt?: boolean;
        now: Date;
      },
    ): Promise<void> {
      const changes = {
        state: call.state,
        updated_at: call.now,
        ...(call.upstreamTransactionId !== undefined
          ? { upstream_transaction_id: call.upstreamTransactionId }
          : {}),
        ...(call.upstreamStatus !== undefined ? { upstream_status: call.upstreamStatus } : {}),
        ...(call.lastError !== undefined ? { last_error: call.lastError?.slice(0, 1000) ?? null } : {}),
      };
      await trx
        .insertInto('upstream_calls')
        .values({
          product: call.product,
          transaction_id: call.transactionId,
          custom_identifier: call.customIdentifier,
          attempts: call.attempt ? 1 : 0,
          created_at: call.now,
          upstream_transaction_id: null,
          upstream_status: null,
          last_error: null,
          ...changes,
        })
        .onConflict((oc) =>
          oc.columns(['product', 'transaction_id']).doUpdateSet((eb) => ({
            ...changes,
            attempts: call.attempt
              ? eb('upstream_calls.attempts', '+', 1)
              : eb.ref('upstream_calls.attempts'),
          })),
        )
        .execute();
    },
  };
}

export type UpstreamRepository = ReturnType<typeof upstreamRepository>;

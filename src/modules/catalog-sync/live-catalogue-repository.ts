import type { Kysely } from 'kysely';
import type { Database, UpstreamProduct } from '../../db/schema.ts';

/**
 * The live catalogue snapshots' SQL (migration 0011): one row per product, replaced whole by each
 * sync, and which products' upstreams are due for a scheduled sync.
 */
export function liveCatalogueRepository(db: Kysely<Database>) {
  return {
    /**
     * Replaces the product's snapshot and sets its upstream's `last_sync_at` to the same instant, in
     * `trx` (the sync's transaction).
     */
    async save(
      trx: Kysely<Database>,
      snapshot: {
        product: UpstreamProduct;
        upstreamUrl: string;
        marginPercent: string;
        document: unknown;
        counts: Record<string, number>;
        at: Date;
      },
    ): Promise<void> {
      const values = {
        upstream_url: snapshot.upstreamUrl,
        margin_percent: snapshot.marginPercent,
        document: JSON.stringify(snapshot.document),
        counts: JSON.stringify(snapshot.counts),
        synced_at: snapshot.at,
      };
      await trx
        .insertInto('live_catalogues')
        .values({ product: snapshot.product, ...values })
        .onConflict((oc) => oc.column('product').doUpdateSet(values))
        .execute();
      await trx
        .updateTable('upstreams')
        .set({ last_sync_at: snapshot.at })
        .where('product', '=', snapshot.product)
        .execute();
    },

    /** Products with an upstream never synced, or last synced before `before`. */
    async due(before: Date): Promise<UpstreamProduct[]> {
      const rows = await db
        .selectFrom('upstreams')
        .select('product')
        .where((eb) => eb.or([eb('last_sync_at', 'is', null), eb('last_sync_at', '<', before)]))
        .orderBy('product')
        .execute();
      return rows.map((r) => r.product);
    },
  };
}

export type LiveCatalogueRepository = ReturnType<typeof liveCatalogueRepository>;

import type { Kysely } from 'kysely';
import type { Database, UpstreamProduct } from '../../db/schema.ts';

/**
 * A product's live catalogue synced from its upstream (`live_catalogues`, migration 0011, written by
 * catalog-sync), or null before the first sync and whenever the snapshot is not from the upstream
 * configured now (none, or another URL). Both products read it the same way; it lives here, beside
 * the upstreams it is checked against, because catalog-sync imports both products (a cycle).
 */
export async function readLiveCatalogue(
  db: Kysely<Database>,
  product: UpstreamProduct,
): Promise<unknown | null> {
  const row = await db
    .selectFrom('live_catalogues as l')
    .innerJoin('upstreams as u', 'u.product', 'l.product')
    .select('l.document')
    .where('l.product', '=', product)
    .whereRef('l.upstream_url', '=', 'u.base_url')
    .executeTakeFirst();
  return row ? row.document : null;
}

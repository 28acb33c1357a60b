import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** SQL of live's synced top-up catalogue (`live_catalogues`, migration 0011; written by catalog-sync). */
export function liveOperatorsRepository(db: Kysely<Database>) {
  return {
    /**
     * The top-up snapshot synced from the upstream configured now, or null (never synced, no
     * upstream, or a snapshot of another upstream URL), as the gift card catalogue decides.
     */
    async readLive(): Promise<unknown | null> {
      const row = await db
        .selectFrom('live_catalogues as l')
        .innerJoin('upstreams as u', 'u.product', 'l.product')
        .select('l.document')
        .where('l.product', '=', 'topups')
        .whereRef('l.upstream_url', '=', 'u.base_url')
        .executeTakeFirst();
      return row ? row.document : null;
    },
  };
}

export type LiveOperatorsRepository = ReturnType<typeof liveOperatorsRepository>;

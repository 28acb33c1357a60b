import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { readLiveCatalogue } from '../../upstream/index.ts';

/** SQL of live's synced top-up catalogue (`live_catalogues`, migration 0011; written by catalog-sync). */
export function liveOperatorsRepository(db: Kysely<Database>) {
  return {
    /**
     * The top-up snapshot synced from the upstream configured now, or null (never synced, no
     * upstream, or a snapshot of another upstream URL), as the gift card catalogue decides.
     */
    readLive(): Promise<unknown | null> {
      return readLiveCatalogue(db, 'topups');
    },
  };
}

export type LiveOperatorsRepository = ReturnType<typeof liveOperatorsRepository>;

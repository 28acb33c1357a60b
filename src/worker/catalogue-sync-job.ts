import type { CatalogSyncService } from '../modules/catalog-sync/index.ts';
import type { JobHandler } from './worker.ts';

/**
 * The scheduled catalogue sync: every product whose upstream was last synced `everyMinutes` ago or
 * more (or never) is synced (`upstreams.last_sync_at` is the record, so a restart loses nothing).
 * Looked for once a minute; a failed sync is tried again at the next look. Job ids: 1 gift cards,
 * 2 top-ups.
 *
 * @example
 * catalogueSyncJob(sync, 60) // in the worker's jobs; 0 minutes: leave it out
 */
const PRODUCTS = ['giftcards', 'topups'] as const;

export function catalogueSyncJob(sync: CatalogSyncService, everyMinutes: number): JobHandler {
  return {
    name: 'catalogue-sync',
    // once a minute, or as often as the schedule when it is shorter (tests)
    intervalMs: Math.max(100, Math.min(60_000, everyMinutes * 60_000)),
    due: async (now) => (await sync.due(now, everyMinutes)).map((p) => ({ id: PRODUCTS.indexOf(p) + 1 })),
    run: async (job) => {
      await sync.sync(PRODUCTS[job.id - 1]!);
    },
  };
}

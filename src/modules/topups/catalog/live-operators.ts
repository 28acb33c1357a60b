import type { Environment } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { LiveOperatorsRepository } from './live-operators-repository.ts';
import {
  type OperatorCatalog,
  type OperatorRecord,
  operatorCatalogOf,
  type PromotionRecord,
} from './operator-catalog.ts';

/**
 * Which operator catalogue an environment serves. The sandbox: the seeded one (`data/operators`).
 * Live: the snapshot synced from the top-up upstream (catalog-sync/topup-sync.ts) when there is one
 * for the upstream configured now, else the seeded one as before any sync. Live's is held in memory,
 * read again after a `catalog` change (`invalidate`) and at least every 30 s; `peek` answers at once
 * with the last one read (what a stored top-up's step needs: its operator's PIN and local amounts).
 *
 * @example
 * const operators = await source.of('live'); // the synced catalogue after `catalog sync topups`
 */
const CACHE_MS = 30_000;

interface Snapshot {
  operators: OperatorRecord[];
  promotions: PromotionRecord[];
  termsAsOf: string;
}

export function createOperatorSource(deps: {
  seed: OperatorCatalog;
  repository: LiveOperatorsRepository;
  clock: Clock;
}) {
  const { seed, repository, clock } = deps;
  let live: OperatorCatalog = seed;
  let reading: Promise<OperatorCatalog> | null = null;
  let readAt = Number.NEGATIVE_INFINITY;

  async function readLive(): Promise<OperatorCatalog> {
    const document = (await repository.readLive()) as Snapshot | null;
    live = document ? operatorCatalogOf({ ...document, matcher: seed.matcher }) : seed;
    return live;
  }

  return {
    seed,
    async of(environment: Environment): Promise<OperatorCatalog> {
      if (environment === 'sandbox') return seed;
      const now = clock.now().getTime();
      if (!reading || now - readAt >= CACHE_MS) {
        readAt = now;
        reading = readLive();
        reading.catch(() => {
          reading = null;
        });
      }
      return reading;
    },
    /** The environment's catalogue as last read (live: the seed until the first read). */
    peek: (environment: Environment): OperatorCatalog => (environment === 'sandbox' ? seed : live),
    /** true when `catalog` is live's synced one (not the seed). */
    isSynced: (catalog: OperatorCatalog) => catalog !== seed,
    invalidate() {
      reading = null;
    },
  };
}

export type OperatorSource = ReturnType<typeof createOperatorSource>;

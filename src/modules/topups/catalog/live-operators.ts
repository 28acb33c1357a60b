import type { Environment } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { LiveOperatorsRepository } from './live-operators-repository.ts';
import {
  type OperatorCatalog,
  type OperatorRecord,
  operatorCatalogOf,
  type PromotionRecord,
} from './operator-catalog.ts';
import type { OperatorStatus, OperatorStatusesRepository } from './operator-statuses-repository.ts';

/**
 * Which operator catalogue an environment serves. The sandbox: the seeded one (`data/operators`).
 * Live: the snapshot synced from the top-up upstream (catalog-sync/topup-sync.ts) when there is one
 * for the upstream configured now, else the seeded one as before any sync. On both, the operator's
 * activate/deactivate (`topup_operator_statuses`, operator-statuses.ts) is applied: on the seeded
 * catalogue either way; on a synced one only a deactivation (the upstream decides what it can serve).
 * Each is held in memory, read again after a `catalog` change (`invalidate`) and at least every 30 s;
 * `peek` answers at once with the last one read (what a stored top-up's step needs: its operator's
 * PIN and local amounts).
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
  statuses: OperatorStatusesRepository;
  clock: Clock;
}) {
  const { seed, repository, statuses, clock } = deps;
  const synced = new WeakSet<OperatorCatalog>();
  const last: Record<Environment, OperatorCatalog> = { sandbox: seed, live: seed };
  const kept: Record<Environment, { reading: Promise<OperatorCatalog> | null; at: number }> = {
    sandbox: { reading: null, at: Number.NEGATIVE_INFINITY },
    live: { reading: null, at: Number.NEGATIVE_INFINITY },
  };

  /** `base` with the operator's choices applied; `base` itself when they change nothing. */
  function withStatuses(base: OperatorCatalog, chosen: Map<number, OperatorStatus>, isSynced: boolean) {
    const changed = base.all.filter((o) => {
      const status = chosen.get(o.operatorId);
      if (status === 'INACTIVE') return o.status;
      return status === 'ACTIVE' && !o.status && !isSynced;
    });
    if (changed.length === 0) return base;
    const ids = new Set(changed.map((o) => o.operatorId));
    return operatorCatalogOf({
      operators: base.all.map((o) => (ids.has(o.operatorId) ? { ...o, status: !o.status } : o)),
      promotions: base.promotions,
      matcher: base.matcher,
      termsAsOf: base.termsAsOf,
    });
  }

  async function read(environment: Environment): Promise<OperatorCatalog> {
    const [document, chosen] = await Promise.all([
      environment === 'live' ? (repository.readLive() as Promise<Snapshot | null>) : null,
      statuses.all(),
    ]);
    const base = document ? operatorCatalogOf({ ...document, matcher: seed.matcher }) : seed;
    const catalog = withStatuses(base, chosen, document !== null);
    if (document) synced.add(catalog);
    last[environment] = catalog;
    return catalog;
  }

  return {
    seed,
    of(environment: Environment): Promise<OperatorCatalog> {
      const k = kept[environment];
      const now = clock.now().getTime();
      if (!k.reading || now - k.at >= CACHE_MS) {
        k.at = now;
        const reading = read(environment);
        k.reading = reading;
        reading.catch(() => {
          if (k.reading === reading) k.reading = null;
        });
      }
      return k.reading;
    },
    /** The environment's catalogue as last read (the seed until the first read). */
    peek: (environment: Environment): OperatorCatalog => last[environment],
    /** true when `catalog` is live's synced one (not the seed). */
    isSynced: (catalog: OperatorCatalog) => synced.has(catalog),
    invalidate() {
      kept.sandbox.reading = null;
      kept.live.reading = null;
    },
  };
}

export type OperatorSource = ReturnType<typeof createOperatorSource>;

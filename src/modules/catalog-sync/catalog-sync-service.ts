import type { Kysely } from 'kysely';
import type { Database, UpstreamProduct } from '../../db/schema.ts';
import { AppError } from '../../errors/error-codes.ts';
import type { ChangeVersions } from '../../lib/change-versions.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/time-format.ts';
import type { Fx } from '../reference/index.ts';
import type { OperatorCatalog } from '../topups/index.ts';
import type { UpstreamClient, UpstreamService } from '../upstream/index.ts';
import { pullGiftcardCatalogue } from './giftcard-sync.ts';
import type { LiveCatalogueRepository } from './live-catalogue-repository.ts';
import { pullTopupCatalogue } from './topup-sync.ts';

/**
 * Catalogue sync (`airgift catalog sync giftcards`, and the worker every UPSTREAM_SYNC_MINUTES):
 * pulls the product's upstream catalogue, prices it with the configured margin, replaces the live
 * snapshot and the upstream's last sync in one transaction, then announces the `catalog` change so
 * every server of the deployment reloads its live catalogue. A sync that fails anywhere changes
 * nothing (live keeps serving the previous snapshot). The sandbox catalogue is never touched.
 *
 * @example
 * const result = await sync.sync('giftcards'); // { product, syncedAt, marginPercent, counts, skipped }
 */
export interface SyncResult {
  product: UpstreamProduct;
  syncedAt: string;
  marginPercent: number;
  counts: Record<string, number>;
  skipped: Array<{ productId: number; reason: string }>;
}

export function createCatalogSyncService(deps: {
  db: Kysely<Database>;
  repository: LiveCatalogueRepository;
  upstreams: UpstreamService;
  fx: Fx;
  changes: ChangeVersions;
  clock: Clock;
  /** The seeded operator catalogue: the carrier of a synced operator with one of its ids. */
  topupSeed?: OperatorCatalog;
}) {
  const { db, repository, upstreams, fx, changes, clock } = deps;
  // one sync per product at a time in this process (the CLI and the schedule may meet)
  const running = new Map<UpstreamProduct, Promise<SyncResult>>();

  async function syncOnce(product: UpstreamProduct): Promise<SyncResult> {
    const client = await upstreams.client(product);
    const marginPercent = await upstreams.marginPercent(product);
    if (!client || marginPercent === null) {
      throw new AppError('RESOURCE_NOT_FOUND', `No upstream is configured for ${product}`);
    }
    const pulled = await pull(product, client, marginPercent);
    const at = clock.now();
    await db.transaction().execute(async (trx) => {
      await repository.save(trx, {
        product,
        upstreamUrl: client.target.baseUrl,
        marginPercent,
        document: pulled.document,
        counts: pulled.counts,
        at,
      });
    });
    await changes.changed('catalog');
    return {
      product,
      syncedAt: formatDateTime(at),
      marginPercent: Number(marginPercent),
      counts: pulled.counts,
      skipped: pulled.skipped,
    };
  }

  /** The product's upstream catalogue, priced: the snapshot's document and its counts. */
  async function pull(product: UpstreamProduct, client: UpstreamClient, marginPercent: string) {
    if (product === 'giftcards') {
      const { file, skipped } = await pullGiftcardCatalogue(client, { fx, marginPercent });
      const counts = {
        categories: file.categories.length,
        brands: file.brands.length,
        products: file.products.length,
        skipped: skipped.length,
      };
      return { document: file as unknown, counts, skipped };
    }
    const { document, skipped } = await pullTopupCatalogue(client, {
      fx,
      marginPercent,
      seed: deps.topupSeed ?? null,
      now: clock.now(),
    });
    const counts = {
      operators: document.operators.length,
      promotions: document.promotions.length,
      skipped: skipped.length,
    };
    return { document: document as unknown, counts, skipped };
  }

  return {
    /** Syncs the product's live catalogue now; 404 without an upstream, 503 when it fails to answer. */
    sync(product: UpstreamProduct): Promise<SyncResult> {
      let run = running.get(product);
      if (!run) {
        run = syncOnce(product).finally(() => running.delete(product));
        running.set(product, run);
      }
      return run;
    },

    /** The products whose upstream was not synced in the last `everyMinutes` (the schedule). */
    due(now: Date, everyMinutes: number): Promise<UpstreamProduct[]> {
      return repository.due(new Date(now.getTime() - everyMinutes * 60_000));
    },
  };
}

export type CatalogSyncService = ReturnType<typeof createCatalogSyncService>;

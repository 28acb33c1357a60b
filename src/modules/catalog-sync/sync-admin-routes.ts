import { Type } from 'typebox';
import type { TypedApp } from '../../http/schemas.ts';
import { params } from '../audit/index.ts';
import type { CatalogSyncService } from './catalog-sync-service.ts';

/** `POST /admin/catalog/sync/{product}`: syncs the product's live catalogue from its upstream now. */
const Params = Type.Object({
  product: Type.Union([Type.Literal('giftcards'), Type.Literal('topups')]),
});
export const SyncResultSchema = Type.Object({
  product: Type.String(),
  syncedAt: Type.String(),
  marginPercent: Type.Number(),
  counts: Type.Record(Type.String(), Type.Integer()),
  skipped: Type.Array(Type.Object({ productId: Type.Integer(), reason: Type.String() })),
});

export function catalogSyncAdminRoutes(app: TypedApp, sync: CatalogSyncService) {
  app.post(
    '/catalog/sync/:product',
    {
      schema: { params: Params, response: { 200: SyncResultSchema } },
      config: { audit: { action: 'catalog.sync', target: (r) => `${params(r).product} upstream catalogue` } },
    },
    (request) => sync.sync(request.params.product),
  );
}

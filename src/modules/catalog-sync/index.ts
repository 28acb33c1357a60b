/**
 * Catalogue sync (issue 8): the live catalogue pulled from a product's upstream with the operator's
 * margin (`catalog-sync-service.ts`, `giftcard-sync.ts`, `topup-sync.ts`, the arithmetic in `sync-margin.ts`), kept as
 * one snapshot per product (`live-catalogue-repository.ts`, table `live_catalogues`) that the
 * product's catalog service serves to live callers.
 */
export type { CatalogSyncService, SyncResult } from './catalog-sync-service.ts';
export { createCatalogSyncService } from './catalog-sync-service.ts';
export { liveCatalogueRepository } from './live-catalogue-repository.ts';
export { catalogSyncAdminRoutes } from './sync-admin-routes.ts';
export { fxShortfallPercent, lowerCommission, lowerDiscount } from './sync-margin.ts';

import { Type } from 'typebox';
import type { TypedApp } from '../../../http/schemas.ts';
import { params } from '../../audit/index.ts';
import { CatalogFile, CatalogImport } from './catalog-file.ts';
import type { CatalogService } from './catalog-service.ts';

/**
 * The operator's catalog routes on the admin API: import a catalog file (the seed format, upserted
 * by id; products absent from the file are kept), export the whole catalog, (de)activate a product.
 */
const ProductParams = Type.Object({ productId: Type.Integer({ minimum: 1 }) });
const ImportCounts = Type.Object({
  categories: Type.Integer(),
  brands: Type.Integer(),
  products: Type.Integer(),
});
const ProductStatus = Type.Object({
  productId: Type.Integer(),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
});
/** The seed catalog is ~1.5 MB; a catalog file may be a good deal larger than other bodies. */
const CATALOG_BODY_LIMIT = 32 * 1024 * 1024;

export function catalogAdminRoutes(app: TypedApp, catalog: CatalogService) {
  app.post(
    '/catalog/import',
    {
      schema: { body: CatalogImport, response: { 200: ImportCounts } },
      bodyLimit: CATALOG_BODY_LIMIT,
      // a whole catalogue file is too large for a line: its counts are in the answer
      config: {
        audit: { action: 'catalog.import', target: () => 'gift card catalogue', details: () => ({}) },
      },
    },
    (request) => catalog.import(request.body),
  );
  app.get('/catalog/export', { schema: { response: { 200: CatalogFile } } }, () => catalog.export());
  for (const [action, status] of [
    ['activate', 'ACTIVE'],
    ['deactivate', 'INACTIVE'],
  ] as const) {
    app.post(
      `/products/:productId/${action}`,
      {
        schema: { params: ProductParams, response: { 200: ProductStatus } },
        config: {
          audit: {
            action: `product.${status.toLowerCase()}`,
            target: (r) => `product ${params(r).productId}`,
          },
        },
      },
      (request) => catalog.setStatus(request.params.productId, status),
    );
  }
}

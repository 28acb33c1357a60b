import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { CatalogFile } from './catalog/catalog-file.ts';
import type { CatalogService } from './catalog/catalog-service.ts';

/**
 * The operator's catalog routes on the admin API: import a catalog file (the seed format, upserted
 * by id; products absent from the file are kept), export the whole catalog, (de)activate a product.
 */
const ProductParams = Type.Object({ productId: Type.Integer({ minimum: 1 }) });

export function catalogAdminRoutes(app: FastifyInstance, catalog: CatalogService) {
  app.post('/catalog/import', { schema: { body: CatalogFile }, bodyLimit: 32 * 1024 * 1024 }, (request) =>
    catalog.import(request.body as Static<typeof CatalogFile>),
  );
  app.get('/catalog/export', () => catalog.export());
  for (const [action, status] of [
    ['activate', 'ACTIVE'],
    ['deactivate', 'INACTIVE'],
  ] as const) {
    app.post(`/products/:productId/${action}`, { schema: { params: ProductParams } }, (request) =>
      catalog.setStatus((request.params as Static<typeof ProductParams>).productId, status),
    );
  }
}

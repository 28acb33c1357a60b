import { Type } from 'typebox';
import type { TypedApp } from '../../../http/schemas.ts';
import { params } from '../../audit/index.ts';
import type { StockService } from './stock-service.ts';

/**
 * The operator's code stock on the admin API (the `airgift stock` and `airgift products provider`
 * commands): load a codes file into a product's stock, count the stock, route a live product.
 */
const ProductParams = Type.Object({ productId: Type.Integer({ minimum: 1 }) });
const Provider = Type.Union([Type.Literal('stock'), Type.Literal('upstream'), Type.Literal('default')]);
const StockLine = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  currencyCode: Type.String({ description: "the product's recipient currency, of faceValue" }),
  provider: Provider,
  faceValue: Type.Number(),
  available: Type.Integer({ description: 'unsold codes that have not expired' }),
  sold: Type.Integer(),
  expired: Type.Integer({ description: 'unsold codes past their expiresAt' }),
  preOrdered: Type.Integer({ description: 'cards that pre-orders waiting for codes need' }),
});
const ImportBody = Type.Object(
  {
    csv: Type.String({
      minLength: 1,
      description:
        'the codes file: a header cardNumber,pinCode,faceValue[,expiresAt], then one code per line',
    }),
  },
  { additionalProperties: false },
);
const Imported = Type.Object({
  productId: Type.Integer(),
  imported: Type.Integer(),
  stock: Type.Array(StockLine),
});
const StockReport = Type.Object({ items: Type.Array(StockLine), at: Type.String() });
const ProviderBody = Type.Object({ provider: Provider }, { additionalProperties: false });
const ProviderAnswer = Type.Object({ productId: Type.Integer(), provider: Provider });
/** A file of a few hundred thousand codes. */
const CODES_BODY_LIMIT = 32 * 1024 * 1024;

export function stockAdminRoutes(app: TypedApp, stock: StockService) {
  app.post(
    '/products/:productId/stock',
    {
      schema: { params: ProductParams, body: ImportBody, response: { 200: Imported } },
      bodyLimit: CODES_BODY_LIMIT,
      // never the codes file: the answer counts what was imported
      config: {
        audit: {
          action: 'stock.import',
          target: (r) => `product ${params(r).productId}`,
          details: () => ({}),
        },
      },
    },
    (request) => stock.import(request.params.productId, request.body.csv),
  );
  app.get(
    '/stock',
    {
      schema: {
        querystring: Type.Object({ productId: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: StockReport },
      },
    },
    (request) => stock.show(request.query.productId),
  );
  app.put(
    '/products/:productId/provider',
    {
      schema: { params: ProductParams, body: ProviderBody, response: { 200: ProviderAnswer } },
      config: { audit: { action: 'product.route', target: (r) => `product ${params(r).productId}` } },
    },
    (request) => stock.setProvider(request.params.productId, request.body.provider),
  );
}

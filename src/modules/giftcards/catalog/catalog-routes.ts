import { Type } from 'typebox';
import { sendShaped, shapesOf } from '../../../http/account-shapes.ts';
import { pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import * as S from './catalog-schemas.ts';
import type { CatalogService } from './catalog-service.ts';
import { type ProductView, serviceProductView } from './product-view.ts';

/**
 * The catalog endpoints of giftcards.md (#3–#13 except balance): categories, countries, products
 * and their filters, redeem instructions, the FX rate and discounts. Thin: parse, ask the catalog
 * service (priced in the caller's account currency), answer.
 */
/**
 * Every answer here depends only on the base, the URL and the account's currency, country and shapes
 * (http/response-cache.ts). With the service's shapes (http/account-shapes.ts) `/products` and
 * `/discounts` answer the paged wrapper and a product's denominations map is one object.
 */
const CACHED = { cache: true } as const;

export function catalogRoutes(app: TypedApp, deps: { catalog: CatalogService; accounts: AccountsService }) {
  const { catalog, accounts } = deps;
  /** The caller's environment and account currency, what prices are shown in. */
  const who = async (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    const account = await accounts.require(principal.accountId);
    return { env: principal.environment, currency: account.currencyCode };
  };

  app.get(
    '/product-categories',
    { config: CACHED, schema: { response: { 200: Type.Array(S.Category) } } },
    async (request) => catalog.categories((await who(request)).env),
  );

  app.get('/countries', { config: CACHED, schema: { response: { 200: Type.Array(S.Country) } } }, () =>
    catalog.countries(),
  );

  app.get(
    '/countries/:countrycode',
    { config: CACHED, schema: { params: S.CountryParams, response: { 200: S.Country } } },
    async (request) => catalog.country(request.params.countrycode),
  );

  app.get(
    '/countries/:countrycode/products',
    {
      config: CACHED,
      schema: {
        params: S.CountryParams,
        querystring: S.PagingQuery,
        response: { 200: S.CountryProducts },
      },
    },
    async (request, reply) => {
      const iso = catalog.country(request.params.countrycode).isoName;
      const { env, currency } = await who(request);
      const page = toLimitOffset(request.query);
      const products = await catalog.products(env, currency, { countryCode: iso }, page);
      // The service answers this list bare too (its Java SDK reads a List here).
      if (shapesOf(request) === 'documented') return sendShaped(reply, S.ProductArray, products);
      return sendShaped(reply, S.ServiceProductArray, products.map(serviceProductView));
    },
  );

  app.get(
    '/products',
    { config: CACHED, schema: { querystring: S.ProductsQuery, response: { 200: S.ProductList } } },
    async (request, reply) => {
      const { env, currency } = await who(request);
      const page = toLimitOffset(request.query);
      if (shapesOf(request) === 'documented') {
        return sendShaped(reply, S.ProductArray, await catalog.products(env, currency, request.query, page));
      }
      const { items, total } = await catalog.productPage(env, currency, request.query, page);
      return sendShaped(reply, S.ProductPage, pagedWrapper(items.map(serviceProductView), page, total));
    },
  );

  app.get(
    '/products/:productId',
    { config: CACHED, schema: { params: S.ProductIdParams, response: { 200: S.OneProduct } } },
    async (request, reply) => {
      const { env, currency } = await who(request);
      const product: ProductView = await catalog.product(env, currency, request.params.productId);
      if (shapesOf(request) === 'documented') return sendShaped(reply, S.Product, product);
      return sendShaped(reply, S.ServiceProduct, serviceProductView(product));
    },
  );

  app.get(
    '/redeem-instructions',
    { config: CACHED, schema: { response: { 200: Type.Array(S.BrandRedeemInstruction) } } },
    (request) => catalog.redeemInstructions(principalOf(request).environment),
  );

  // Compatibility alias (decisions §9): Reloadly's Java SDK reads a brand's instructions here.
  app.get(
    '/brands/:brandId/redeem-instructions',
    { config: CACHED, schema: { params: S.BrandIdParams, response: { 200: S.BrandRedeemInstruction } } },
    (request) => catalog.brandRedeemInstruction(principalOf(request).environment, request.params.brandId),
  );

  app.get(
    '/products/:productId/redeem-instructions',
    { config: CACHED, schema: { params: S.ProductIdParams, response: { 200: S.ProductRedeemInstruction } } },
    (request) => catalog.redeemInstruction(principalOf(request).environment, request.params.productId),
  );

  // decisions §5: `amount` of recipient currency `currencyCode`, priced in the account currency.
  app.get(
    '/fx-rate',
    { config: CACHED, schema: { querystring: S.FxQuery, response: { 200: S.FxRate } } },
    async (request) =>
      catalog.fxRate((await who(request)).currency, request.query.currencyCode, request.query.amount),
  );

  app.get(
    '/discounts',
    { config: CACHED, schema: { querystring: S.PagingQuery, response: { 200: S.DiscountList } } },
    async (request, reply) => {
      const env = principalOf(request).environment;
      const page = toLimitOffset(request.query);
      if (shapesOf(request) === 'documented') {
        return sendShaped(reply, S.DiscountArray, await catalog.discounts(env, page));
      }
      const { items, total } = await catalog.discountPage(env, page);
      return sendShaped(reply, S.DiscountPage, pagedWrapper(items, page, total));
    },
  );

  app.get(
    '/products/:productId/discounts',
    { config: CACHED, schema: { params: S.ProductIdParams, response: { 200: S.Discount } } },
    (request) => catalog.discount(principalOf(request).environment, request.params.productId),
  );
}

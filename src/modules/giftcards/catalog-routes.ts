import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { AppError } from '../../http/error-codes.ts';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { principalOf } from '../../http/request-context.ts';
import { dec, roundToMinor } from '../../lib/money.ts';
import type { Services } from '../../services.ts';
import type { GiftcardServices } from './giftcard-services.ts';
import * as S from './schemas.ts';

/**
 * The catalog endpoints of giftcards.md (#3–#13 except balance): categories, countries, products
 * and their filters, redeem instructions, the FX rate and discounts. Thin: parse, ask the catalog
 * service (priced in the caller's account currency), answer.
 */
/** Every answer here depends only on the base, the URL and the account's currency (http/response-cache.ts). */
const CACHED = { cache: true };

const ProductIdParams = Type.Object({ productId: Type.Integer() });
const CountryParams = Type.Object({ countrycode: Type.String() });
const BrandIdParams = Type.Object({ brandId: Type.Integer() });

const ProductsQuery = Type.Object({
  ...pagingQuery(200),
  productName: Type.Optional(Type.String()),
  countryCode: Type.Optional(Type.String()),
  productCategoryId: Type.Optional(Type.Integer()),
  includeRange: Type.Optional(Type.Boolean()),
  includeFixed: Type.Optional(Type.Boolean()),
});

const FxQuery = Type.Object({
  currencyCode: Type.String({ pattern: '^[A-Za-z]{3}$' }),
  amount: Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,6})?$' }),
});
const FX_RATE = { config: CACHED, schema: { querystring: FxQuery, response: { 200: S.FxRate } } };
const CATEGORIES = { config: CACHED, schema: { response: { 200: Type.Array(S.Category) } } };

export function catalogRoutes(app: FastifyInstance, services: Services, giftcards: GiftcardServices) {
  const { catalog } = giftcards;
  const who = async (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    const account = await services.accounts.require(principal.accountId);
    return { env: principal.environment, currency: account.currencyCode };
  };
  const country = (code: string) => {
    const found = services.countries.find(code);
    if (!found) throw new AppError('RESOURCE_NOT_FOUND', `No country ${code}`);
    return found;
  };

  app.get('/product-categories', CATEGORIES, () => catalog.categories());

  app.get(
    '/countries',
    { config: CACHED, schema: { response: { 200: Type.Array(S.Country) } } },
    () => services.countries.all,
  );

  app.get(
    '/countries/:countrycode',
    { config: CACHED, schema: { params: CountryParams, response: { 200: S.Country } } },
    async (request) => country((request.params as Static<typeof CountryParams>).countrycode),
  );

  app.get(
    '/countries/:countrycode/products',
    {
      config: CACHED,
      schema: {
        params: CountryParams,
        querystring: Type.Object(pagingQuery(200)),
        response: { 200: Type.Array(S.Product) },
      },
    },
    async (request) => {
      const iso = country((request.params as Static<typeof CountryParams>).countrycode).isoName;
      const { env, currency } = await who(request);
      return catalog.products(env, currency, { countryCode: iso }, toLimitOffset(request.query as object));
    },
  );

  app.get(
    '/products',
    { config: CACHED, schema: { querystring: ProductsQuery, response: { 200: Type.Array(S.Product) } } },
    async (request) => {
      const q = request.query as Static<typeof ProductsQuery>;
      const { env, currency } = await who(request);
      return catalog.products(env, currency, q, toLimitOffset(q));
    },
  );

  app.get(
    '/products/:productId',
    { config: CACHED, schema: { params: ProductIdParams, response: { 200: S.Product } } },
    async (request) => {
      const { env, currency } = await who(request);
      return catalog.product(env, currency, (request.params as Static<typeof ProductIdParams>).productId);
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
    { config: CACHED, schema: { params: BrandIdParams, response: { 200: S.BrandRedeemInstruction } } },
    (request) =>
      catalog.brandRedeemInstruction(
        principalOf(request).environment,
        (request.params as Static<typeof BrandIdParams>).brandId,
      ),
  );

  app.get(
    '/products/:productId/redeem-instructions',
    { config: CACHED, schema: { params: ProductIdParams, response: { 200: S.ProductRedeemInstruction } } },
    (request) =>
      catalog.redeemInstruction(
        principalOf(request).environment,
        (request.params as Static<typeof ProductIdParams>).productId,
      ),
  );

  // decisions §5: `amount` of recipient currency `currencyCode`, priced in the account currency.
  app.get('/fx-rate', FX_RATE, async (request) => {
    const q = request.query as Static<typeof FxQuery>;
    const { currency } = await who(request);
    const code = q.currencyCode.toUpperCase();
    const cost = await services.fx.cost(q.amount, code, currency);
    return {
      senderCurrency: currency,
      senderAmount: roundToMinor(cost, currency).toNumber(),
      recipientCurrency: code,
      recipientAmount: dec(q.amount).toNumber(),
    };
  });

  app.get(
    '/discounts',
    {
      config: CACHED,
      schema: { querystring: Type.Object(pagingQuery(200)), response: { 200: Type.Array(S.Discount) } },
    },
    (request) => catalog.discounts(principalOf(request).environment, toLimitOffset(request.query as object)),
  );

  app.get(
    '/products/:productId/discounts',
    { config: CACHED, schema: { params: ProductIdParams, response: { 200: S.Discount } } },
    (request) =>
      catalog.discount(
        principalOf(request).environment,
        (request.params as Static<typeof ProductIdParams>).productId,
      ),
  );
}

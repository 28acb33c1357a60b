import { Type } from 'typebox';
import { Paged, pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import {
  Commission,
  CountryCodeParams,
  OperatorIdParams,
  PagingQuery,
  Promotion,
  PromotionIdParams,
} from './catalog-schemas.ts';
import type { TopupCatalogService } from './catalog-service.ts';

/** Commissions (scope `read-prepaid-commissions`) and promotions (`read-promotions`). */
// Answers depend only on the base, the URL and the account: kept (http/response-cache.ts).
const COMMISSIONS = { access: { scope: 'read-prepaid-commissions' }, cache: true as const };
const PROMOTIONS = { access: { scope: 'read-promotions' }, cache: true as const };

export function commissionPromotionRoutes(app: TypedApp, catalog: TopupCatalogService) {
  app.get(
    '/operators/commissions',
    { schema: { querystring: PagingQuery, response: { 200: Paged(Commission) } }, config: COMMISSIONS },
    async (request) => {
      const page = toLimitOffset(request.query, 200);
      const { content, total } = await catalog.commissions(principalOf(request).environment, page);
      return pagedWrapper(content, page, total);
    },
  );

  app.get(
    '/operators/:operatorId/commissions',
    { schema: { params: OperatorIdParams, response: { 200: Commission } }, config: COMMISSIONS },
    async (request) => catalog.commission(principalOf(request).environment, request.params.operatorId),
  );

  app.get(
    '/promotions',
    { schema: { querystring: PagingQuery, response: { 200: Paged(Promotion) } }, config: PROMOTIONS },
    async (request) => {
      const page = toLimitOffset(request.query, 200);
      const { content, total } = await catalog.promotions(principalOf(request).environment, page);
      return pagedWrapper(content, page, total);
    },
  );

  app.get(
    '/promotions/:promotionId',
    { schema: { params: PromotionIdParams, response: { 200: Promotion } }, config: PROMOTIONS },
    async (request) => catalog.promotion(principalOf(request).environment, request.params.promotionId),
  );

  // `/promotions/countries/{code}` is the compatibility alias Reloadly's Node SDK calls.
  for (const path of ['/promotions/country-codes/:countryCode', '/promotions/countries/:countryCode']) {
    app.get(
      path,
      {
        schema: { params: CountryCodeParams, response: { 200: Type.Array(Promotion) } },
        config: PROMOTIONS,
      },
      async (request) =>
        catalog.promotionsOfCountry(principalOf(request).environment, request.params.countryCode),
    );
  }

  app.get(
    '/promotions/operators/:operatorId',
    { schema: { params: OperatorIdParams, response: { 200: Type.Array(Promotion) } }, config: PROMOTIONS },
    async (request) =>
      catalog.promotionsOfOperator(principalOf(request).environment, request.params.operatorId),
  );
}

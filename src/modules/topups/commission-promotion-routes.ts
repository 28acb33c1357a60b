import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { AppError } from '../../http/error-codes.ts';
import { pagedWrapper, pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { dec } from '../../lib/money.ts';
import type { OperatorRecord } from './operator-catalog.ts';
import type { TopupDeps } from './topup-deps.ts';
import { Commission, Paged, Promotion } from './topup-schemas.ts';

/**
 * Commissions (scope `read-prepaid-commissions`) and promotions (`read-promotions`). Commissions list
 * every operator, inactive ones with `operator.status: false`; `percentage` is the international
 * discount (what most sends earn). `updatedAt` is the as-of time of the catalogue's terms.
 */
// Answers depend only on the base, the URL and the account: kept (http/response-cache.ts).
const COMMISSIONS = { access: { scope: 'read-prepaid-commissions' }, cache: true };
const PROMOTIONS = { access: { scope: 'read-promotions' }, cache: true };
const IdParams = Type.Object({ operatorId: Type.Integer({ minimum: 0 }) });

export function commissionPromotionRoutes(app: FastifyInstance, deps: TopupDeps, termsAsOf: string) {
  const { catalog, views, countries } = deps;

  const commission = (o: OperatorRecord): Static<typeof Commission> => ({
    operator: {
      operatorId: o.operatorId,
      id: o.operatorId,
      name: o.name,
      countryCode: o.countryCode,
      status: o.status,
      bundle: o.bundle,
      data: o.data,
    },
    percentage: dec(o.internationalDiscount).toNumber(),
    internationalPercentage: dec(o.internationalDiscount).toNumber(),
    localPercentage: dec(o.localDiscount).toNumber(),
    updatedAt: termsAsOf,
  });

  app.get(
    '/operators/commissions',
    {
      schema: { querystring: Type.Object(pagingQuery(200)), response: { 200: Paged(Commission) } },
      config: COMMISSIONS,
    },
    async (request) => {
      const page = toLimitOffset(request.query as object, 200);
      const content = catalog.all.slice(page.offset, page.offset + page.limit).map(commission);
      return pagedWrapper(content, page, catalog.all.length);
    },
  );

  app.get(
    '/operators/:operatorId/commissions',
    { schema: { params: IdParams, response: { 200: Commission } }, config: COMMISSIONS },
    async (request) => {
      const { operatorId } = request.params as Static<typeof IdParams>;
      const operator = catalog.find(operatorId);
      if (!operator) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
      return commission(operator);
    },
  );

  app.get(
    '/promotions',
    {
      schema: { querystring: Type.Object(pagingQuery(200)), response: { 200: Paged(Promotion) } },
      config: PROMOTIONS,
    },
    async (request) => {
      const page = toLimitOffset(request.query as object, 200);
      const all = catalog.promotions;
      return pagedWrapper(
        all.slice(page.offset, page.offset + page.limit).map(views.promotion),
        page,
        all.length,
      );
    },
  );

  app.get(
    '/promotions/:promotionId',
    {
      schema: {
        params: Type.Object({ promotionId: Type.Integer({ minimum: 0 }) }),
        response: { 200: Promotion },
      },
      config: PROMOTIONS,
    },
    async (request) => {
      const { promotionId } = request.params as { promotionId: number };
      const promotion = catalog.findPromotion(promotionId);
      if (!promotion) throw new AppError('RESOURCE_NOT_FOUND', `No promotion ${promotionId}`);
      return views.promotion(promotion);
    },
  );

  // `/promotions/countries/{code}` is the compatibility alias Reloadly's Node SDK calls.
  for (const path of ['/promotions/country-codes/:countryCode', '/promotions/countries/:countryCode']) {
    app.get(
      path,
      {
        schema: {
          params: Type.Object({ countryCode: Type.String({ minLength: 1, maxLength: 3 }) }),
          response: { 200: Type.Array(Promotion) },
        },
        config: PROMOTIONS,
      },
      promotionsOfCountry,
    );
  }

  async function promotionsOfCountry(request: FastifyRequest) {
    const { countryCode } = request.params as { countryCode: string };
    const iso = countryCode.toUpperCase();
    if (!countries.find(iso) || !catalog.hasCountry(iso)) {
      throw new AppError('COUNTRY_NOT_SUPPORTED', `Top-ups to "${countryCode}" are not supported`);
    }
    const ids = new Set(catalog.all.filter((o) => o.countryCode === iso).map((o) => o.operatorId));
    return catalog.promotions.filter((p) => ids.has(p.operatorId)).map(views.promotion);
  }

  app.get(
    '/promotions/operators/:operatorId',
    { schema: { params: IdParams, response: { 200: Type.Array(Promotion) } }, config: PROMOTIONS },
    async (request) => {
      const { operatorId } = request.params as Static<typeof IdParams>;
      if (!catalog.find(operatorId)) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
      return catalog.promotionsOf(operatorId).map(views.promotion);
    },
  );
}

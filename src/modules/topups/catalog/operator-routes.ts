import { Type } from 'typebox';
import { Paged, pagedWrapper, toLimitOffset } from '../../../http/paging.ts';
import { principalOf } from '../../../http/request-context.ts';
import type { TypedApp } from '../../../http/schemas.ts';
import {
  AmountFlagsQuery,
  AutoDetectParams,
  AutoDetectQuery,
  Country,
  CountryOperatorsQuery,
  CountryParams,
  FxAmountBody,
  FxBody,
  FxRate,
  Operator,
  OperatorIdParams,
  OperatorsQuery,
} from './catalog-schemas.ts';
import type { TopupCatalogService } from './catalog-service.ts';

/**
 * Countries, operators, auto-detect and the FX rate (scope `read-operators`, decisions §2). Thin:
 * the schema, then the catalogue service, in the caller's account currency.
 */
// GET answers depend only on the base, the URL and the account's currency and country: kept (http/response-cache.ts).
const SCOPE = { access: { scope: 'read-operators' }, cache: true as const };

export function operatorRoutes(app: TypedApp, catalog: TopupCatalogService) {
  app.get('/countries', { schema: { response: { 200: Type.Array(Country) } }, config: SCOPE }, async () =>
    catalog.countries(),
  );

  app.get(
    '/countries/:countryIsoCode',
    { schema: { params: CountryParams, response: { 200: Country } }, config: SCOPE },
    async (request) => catalog.country(request.params.countryIsoCode),
  );

  app.get(
    '/operators',
    { schema: { querystring: OperatorsQuery, response: { 200: Paged(Operator) } }, config: SCOPE },
    async (request) => {
      const page = toLimitOffset(request.query, 200);
      const { content, total } = await catalog.operators(principalOf(request), request.query, page);
      return pagedWrapper(content, page, total);
    },
  );

  app.get(
    '/operators/:operatorId',
    {
      schema: { params: OperatorIdParams, querystring: AmountFlagsQuery, response: { 200: Operator } },
      config: SCOPE,
    },
    async (request) => catalog.operator(principalOf(request), request.params.operatorId, request.query),
  );

  app.get(
    '/operators/countries/:countryIsoCode',
    {
      schema: {
        params: CountryParams,
        querystring: CountryOperatorsQuery,
        response: { 200: Type.Array(Operator) },
      },
      config: SCOPE,
    },
    async (request) =>
      catalog.operatorsOfCountry(principalOf(request), request.params.countryIsoCode, request.query),
  );

  app.get(
    '/operators/auto-detect/phone/:phone/countries/:iso',
    {
      schema: { params: AutoDetectParams, querystring: AutoDetectQuery, response: { 200: Operator } },
      config: SCOPE,
    },
    async (request) =>
      catalog.autoDetect(principalOf(request), request.params.phone, request.params.iso, request.query),
  );

  app.post(
    '/operators/fx-rate',
    { schema: { body: FxBody, response: { 200: FxRate } }, config: SCOPE },
    async (request) => catalog.fxRate(principalOf(request), request.body.operatorId, request.body.amount),
  );

  // Compatibility alias: Reloadly's Node SDK posts `{amount}` to /operators/{operatorId}/fx-rate.
  app.post(
    '/operators/:operatorId/fx-rate',
    {
      schema: { params: OperatorIdParams, body: FxAmountBody, response: { 200: FxRate } },
      config: SCOPE,
    },
    async (request) => catalog.fxRate(principalOf(request), request.params.operatorId, request.body.amount),
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { AppError } from '../../http/error-codes.ts';
import { pagedWrapper, pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { principalOf } from '../../http/request-context.ts';
import { roundToMinor } from '../../lib/money.ts';
import { normalizePhone } from './operator-detection.ts';
import type { TopupDeps } from './topup-deps.ts';
import { parseAmount } from './topup-pricing.ts';
import { Country, FxRate, Operator, Paged } from './topup-schemas.ts';

/**
 * Countries, operators, auto-detect and the FX rate (scope `read-operators`, decisions §2).
 * Operators are shown in the caller's account currency; inactive operators are not listed.
 */
// GET answers depend only on the base, the URL and the account's currency and country: kept (http/response-cache.ts).
const SCOPE = { access: { scope: 'read-operators' }, cache: true };
const flag = (def: boolean) => Type.Optional(Type.Boolean({ default: def }));
const AmountFlags = { suggestedAmounts: flag(false), suggestedAmountsMap: flag(false) };
const IsoParam = Type.String({ minLength: 1, maxLength: 3 });

// includeRange/includeFixed: compatibility aliases Reloadly's Node SDK sends (docs/decisions.md).
const Includes = {
  includePin: flag(true),
  includeData: flag(true),
  includeBundles: flag(true),
  includeRange: flag(true),
  includeFixed: flag(true),
};
const OperatorsQuery = Type.Object({
  ...pagingQuery(200),
  ...AmountFlags,
  simplified: flag(false),
  ...Includes,
});
const CountryOperatorsQuery = Type.Object({ ...AmountFlags, ...Includes });
const OperatorIdParams = Type.Object({ operatorId: Type.Integer({ minimum: 0 }) });
const AutoDetectParams = Type.Object({ phone: Type.String({ maxLength: 40 }), iso: IsoParam });
const AutoDetectQuery = Type.Object({ ...AmountFlags, includeBundles: flag(false) });
// `amount` is checked by parseAmount, so a non-number answers INVALID_AMOUNT, not INVALID_REQUEST.
const FxBody = Type.Object({
  operatorId: Type.Integer({ minimum: 0 }),
  amount: Type.Unknown({ description: 'number' }),
});

/**
 * The number as given, valid in `iso`; else, for a '+' the caller may have added to a national number
 * (Reloadly's Node SDK always prefixes one: "+08031234567"), the same digits without it.
 */
function detectableNumber(phone: string, iso: string) {
  const asGiven = normalizePhone(phone, iso);
  if (asGiven?.valid && asGiven.countryMatches) return asGiven;
  if (!phone.trim().startsWith('+')) return null;
  const withoutPlus = normalizePhone(phone.trim().slice(1), iso);
  return withoutPlus?.valid && withoutPlus.countryMatches ? withoutPlus : null;
}

export function operatorRoutes(app: FastifyInstance, deps: TopupDeps) {
  const { catalog, views, countries, accounts } = deps;
  const currencyOf = async (request: Parameters<typeof principalOf>[0]) =>
    (await accounts.require(principalOf(request).accountId)).currencyCode;

  /** A country airgift has operators for; anything else is COUNTRY_NOT_SUPPORTED. */
  function supportedCountry(iso: string) {
    const country = countries.find(iso);
    if (!country || !catalog.hasCountry(country.isoName)) {
      throw new AppError('COUNTRY_NOT_SUPPORTED', `Top-ups to "${iso}" are not supported`);
    }
    return country;
  }

  app.get('/countries', { schema: { response: { 200: Type.Array(Country) } }, config: SCOPE }, async () =>
    catalog.countryCodes().flatMap((iso) => {
      const c = countries.find(iso);
      return c ? [views.country(c)] : [];
    }),
  );

  app.get(
    '/countries/:countryIsoCode',
    {
      schema: { params: Type.Object({ countryIsoCode: IsoParam }), response: { 200: Country } },
      config: SCOPE,
    },
    async (request) => {
      const { countryIsoCode } = request.params as { countryIsoCode: string };
      return views.country(supportedCountry(countryIsoCode));
    },
  );

  app.get(
    '/operators',
    { schema: { querystring: OperatorsQuery, response: { 200: Paged(Operator) } }, config: SCOPE },
    async (request) => {
      const q = request.query as Static<typeof OperatorsQuery>;
      const page = toLimitOffset(q, 200);
      const all = catalog.list(q);
      const currency = await currencyOf(request);
      const content = await Promise.all(
        all.slice(page.offset, page.offset + page.limit).map((o) => views.operator(o, currency, q)),
      );
      return pagedWrapper(content, page, all.length);
    },
  );

  app.get(
    '/operators/:operatorId',
    {
      schema: {
        params: OperatorIdParams,
        querystring: Type.Object(AmountFlags),
        response: { 200: Operator },
      },
      config: SCOPE,
    },
    async (request) => {
      const { operatorId } = request.params as Static<typeof OperatorIdParams>;
      const operator = catalog.find(operatorId);
      if (!operator?.status) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
      return views.operator(operator, await currencyOf(request), request.query as object);
    },
  );

  app.get(
    '/operators/countries/:countryIsoCode',
    {
      schema: {
        params: Type.Object({ countryIsoCode: IsoParam }),
        querystring: CountryOperatorsQuery,
        response: { 200: Type.Array(Operator) },
      },
      config: SCOPE,
    },
    async (request) => {
      const { countryIsoCode } = request.params as { countryIsoCode: string };
      const q = request.query as Static<typeof CountryOperatorsQuery>;
      const country = supportedCountry(countryIsoCode);
      const currency = await currencyOf(request);
      return Promise.all(
        catalog.list({ ...q, countryCode: country.isoName }).map((o) => views.operator(o, currency, q)),
      );
    },
  );

  app.get(
    '/operators/auto-detect/phone/:phone/countries/:iso',
    {
      schema: { params: AutoDetectParams, querystring: AutoDetectQuery, response: { 200: Operator } },
      config: SCOPE,
    },
    async (request) => {
      const { phone, iso } = request.params as Static<typeof AutoDetectParams>;
      const q = request.query as Static<typeof AutoDetectQuery>;
      const country = supportedCountry(iso);
      const number = detectableNumber(phone, country.isoName);
      if (!number) {
        throw new AppError(
          'INVALID_PHONE_NUMBER',
          `${phone} is not a valid phone number in ${country.isoName}`,
        );
      }
      const operator = catalog.detect(country.isoName, number.nationalNumber, q.includeBundles);
      if (!operator) throw new AppError('COULD_NOT_AUTO_DETECT_OPERATOR');
      return views.operator(operator, await currencyOf(request), q);
    },
  );

  async function fxRate(request: FastifyRequest, operatorId: number, rawAmount: unknown) {
    const amount = parseAmount(rawAmount);
    const operator = catalog.find(operatorId);
    if (!operator?.status) throw new AppError('RESOURCE_NOT_FOUND', `No operator ${operatorId}`);
    const rate = await deps.fx.rate(await currencyOf(request), operator.destinationCurrencyCode);
    return {
      id: operator.operatorId,
      name: operator.name,
      fxRate: roundToMinor(amount.times(rate), operator.destinationCurrencyCode).toNumber(),
      currencyCode: operator.destinationCurrencyCode,
    };
  }

  app.post(
    '/operators/fx-rate',
    { schema: { body: FxBody, response: { 200: FxRate } }, config: SCOPE },
    async (request) => {
      const body = request.body as Static<typeof FxBody>;
      return fxRate(request, body.operatorId, body.amount);
    },
  );

  // Compatibility alias: Reloadly's Node SDK posts `{amount}` to /operators/{operatorId}/fx-rate.
  app.post(
    '/operators/:operatorId/fx-rate',
    {
      schema: {
        params: OperatorIdParams,
        body: Type.Object({ amount: Type.Unknown({ description: 'number' }) }),
        response: { 200: FxRate },
      },
      config: SCOPE,
    },
    async (request) => {
      const { operatorId } = request.params as Static<typeof OperatorIdParams>;
      return fxRate(request, operatorId, (request.body as { amount: unknown }).amount);
    },
  );
}

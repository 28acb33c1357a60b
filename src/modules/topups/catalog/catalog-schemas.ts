import { Type } from 'typebox';
import { pagingQuery } from '../../../http/paging.ts';
import { DateTimeText, StringEnum } from '../../../http/schemas.ts';
import { TopupCountry } from '../../reference/index.ts';

/**
 * The schemas of the top-up catalogue's endpoints (countries, operators, auto-detect, FX,
 * commissions, promotions): each drives the request's validation, the OpenAPI document and the
 * handler's types. Response schemas are field for field the spec's tables; a field that is not here
 * is never sent.
 */
const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const AmountMap = Type.Record(Type.String(), Type.String());

export const Country = TopupCountry;

export const Promotion = Type.Object({
  promotionId: Type.Integer(),
  id: Type.Integer({ description: 'Compatibility alias of promotionId (Reloadly SDKs read `id`)' }),
  operatorId: Type.Integer(),
  title: Type.String(),
  title2: Type.String(),
  description: Type.String(),
  startDate: Type.String({ description: 'Mon, 25 Jun 2018 06:00:00 +0000' }),
  endDate: Type.String(),
  denominations: Type.String(),
  localDenominations: NullableString,
});

/**
 * The Operator. Fields marked optional are absent from `simplified=true` answers (docs/decisions.md
 * lists that form) or, for the two suggested-amount fields, present only when asked for.
 */
export const Operator = Type.Object({
  operatorId: Type.Integer(),
  id: Type.Integer({ description: 'Compatibility alias of operatorId (Reloadly SDKs read `id`)' }),
  name: Type.String(),
  bundle: Type.Boolean(),
  data: Type.Boolean(),
  pin: Type.Boolean(),
  supportsLocalAmounts: Type.Boolean(),
  denominationType: StringEnum(['FIXED', 'RANGE'], {
    description: 'FIXED: one of fixedAmounts; RANGE: any amount from minAmount to maxAmount',
  }),
  senderCurrencyCode: Type.String(),
  senderCurrencySymbol: Type.Optional(Type.String()),
  destinationCurrencyCode: Type.String(),
  destinationCurrencySymbol: Type.Optional(Type.String()),
  commission: Type.Optional(Type.Number()),
  internationalDiscount: Type.Optional(Type.Number()),
  localDiscount: Type.Optional(Type.Number()),
  mostPopularAmount: Type.Optional(Nullable(Type.Number())),
  mostPopularLocalAmount: Type.Optional(Nullable(Type.Number())),
  minAmount: Nullable(Type.Number()),
  maxAmount: Nullable(Type.Number()),
  localMinAmount: Nullable(Type.Number()),
  localMaxAmount: Nullable(Type.Number()),
  country: Type.Object({ isoName: Type.String(), name: Type.String() }),
  fx: Type.Optional(Type.Object({ rate: Type.Number(), currencyCode: Type.String() })),
  logoUrls: Type.Optional(Type.Array(Type.String())),
  fixedAmounts: Type.Array(Type.Number()),
  fixedAmountsDescriptions: Type.Optional(AmountMap),
  localFixedAmounts: Type.Array(Type.Number()),
  localFixedAmountsDescriptions: Type.Optional(AmountMap),
  suggestedAmounts: Type.Optional(Type.Array(Type.Number())),
  suggestedAmountsMap: Type.Optional(Type.Record(Type.String(), Type.Number())),
  promotions: Type.Optional(Type.Array(Promotion)),
});

export const Commission = Type.Object({
  operator: Type.Object({
    operatorId: Type.Integer(),
    id: Type.Integer({ description: 'Compatibility alias of operatorId (Reloadly SDKs read `id`)' }),
    name: Type.String(),
    countryCode: Type.String(),
    status: Type.Boolean(),
    bundle: Type.Boolean(),
    data: Type.Boolean(),
  }),
  percentage: Type.Number(),
  internationalPercentage: Type.Number(),
  localPercentage: Type.Number(),
  updatedAt: DateTimeText,
});

export const FxRate = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fxRate: Type.Number(),
  currencyCode: Type.String(),
});

// ---- requests

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

export const PagingQuery = Type.Object(pagingQuery(200));
export const CountryParams = Type.Object({ countryIsoCode: IsoParam });
export const CountryCodeParams = Type.Object({ countryCode: IsoParam });
export const OperatorIdParams = Type.Object({ operatorId: Type.Integer({ minimum: 0 }) });
export const PromotionIdParams = Type.Object({ promotionId: Type.Integer({ minimum: 0 }) });
export const AmountFlagsQuery = Type.Object(AmountFlags);
export const OperatorsQuery = Type.Object({
  ...pagingQuery(200),
  ...AmountFlags,
  simplified: flag(false),
  ...Includes,
});
export const CountryOperatorsQuery = Type.Object({ ...AmountFlags, ...Includes });
export const AutoDetectParams = Type.Object({ phone: Type.String({ maxLength: 40 }), iso: IsoParam });
export const AutoDetectQuery = Type.Object({ ...AmountFlags, includeBundles: flag(false) });
// `amount` is checked by parseAmount, so a non-number answers INVALID_AMOUNT, not INVALID_REQUEST.
const Amount = Type.Unknown({ description: 'number' });
export const FxBody = Type.Object({ operatorId: Type.Integer({ minimum: 0 }), amount: Amount });
/** Compatibility: Reloadly's Node SDK posts `{amount}` to /operators/{operatorId}/fx-rate. */
export const FxAmountBody = Type.Object({ amount: Amount });

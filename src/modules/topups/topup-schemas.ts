import { Type } from 'typebox';
import { DateTimeText } from '../../http/schemas.ts';

/**
 * Response schemas of the top-up service, field for field as the spec's tables. They validate
 * nothing on the way out but decide what is serialised: a field that is not here is never sent.
 */
const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const AmountMap = Type.Record(Type.String(), Type.String());

export { TopupCountry as Country } from '../reference/country-schemas.ts';

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
  denominationType: Type.String(),
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

export const PinDetail = Type.Object({
  serial: NullableString,
  info1: NullableString,
  info2: NullableString,
  info3: NullableString,
  value: NullableString,
  code: NullableString,
  ivr: NullableString,
  validity: NullableString,
});

export const Link = Type.Object({ href: Type.String(), rel: Type.String(), method: Type.String() });

export const BalanceInfo = Type.Object({
  oldBalance: Type.Number(),
  newBalance: Type.Number(),
  cost: Type.Number(),
  currencyCode: Type.String(),
  currencyName: Type.String(),
  updatedAt: DateTimeText,
});

export const TopupTransaction = Type.Object({
  transactionId: Type.Integer(),
  status: Type.String(),
  operatorTransactionId: NullableString,
  customIdentifier: NullableString,
  recipientPhone: NullableString,
  recipientEmail: Type.Optional(Type.String()),
  senderPhone: NullableString,
  countryCode: Type.String(),
  operatorId: Type.Integer(),
  operatorName: Type.String(),
  discount: Type.Number(),
  discountCurrencyCode: Type.String(),
  requestedAmount: Type.Number(),
  requestedAmountCurrencyCode: Type.String(),
  deliveredAmount: Type.Number(),
  deliveredAmountCurrencyCode: Type.String(),
  transactionDate: DateTimeText,
  balanceInfo: BalanceInfo,
  pinDetail: Type.Union([PinDetail, Type.Null()]),
  links: Type.Array(Link),
});

const SortState = Type.Object({ unsorted: Type.Boolean(), sorted: Type.Boolean(), empty: Type.Boolean() });

/** The spec's paged wrapper around `item` (built by http/paging.ts `pagedWrapper`). */
export function Paged<T extends Parameters<typeof Type.Array>[0]>(item: T) {
  return Type.Object({
    content: Type.Array(item),
    pageable: Type.Object({
      sort: SortState,
      pageNumber: Type.Integer(),
      pageSize: Type.Integer(),
      offset: Type.Integer(),
      paged: Type.Boolean(),
      unpaged: Type.Boolean(),
    }),
    totalElements: Type.Integer(),
    totalPages: Type.Integer(),
    last: Type.Boolean(),
    first: Type.Boolean(),
    sort: SortState,
    number: Type.Integer(),
    numberOfElements: Type.Integer(),
    size: Type.Integer(),
    empty: Type.Boolean(),
  });
}

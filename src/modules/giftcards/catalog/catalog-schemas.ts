import { Type } from 'typebox';
import { SHAPES_NOTE } from '../../../http/account-shapes.ts';
import { Paged, pagingQuery } from '../../../http/paging.ts';
import { OneOf, StringEnum } from '../../../http/schemas.ts';

/**
 * The schemas of the catalog endpoints (giftcards.md #3–#13): each drives the request's validation,
 * the OpenAPI document and the handler's types. Responses are field for field as giftcards.md names
 * them (its odd spelling `maxrecipientDenomination` included); they shape every answer.
 */
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const Category = Type.Object({ id: Type.Integer(), name: Type.String() });

export { GiftcardCountry as Country } from '../../reference/index.ts';

export const Product = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  global: Type.Boolean(),
  supportsPreOrder: Type.Boolean(),
  status: StringEnum(['ACTIVE', 'INACTIVE']),
  senderFee: Type.Number(),
  senderFeePercentage: Type.Number(),
  discountPercentage: Type.Number(),
  denominationType: StringEnum(['FIXED', 'RANGE'], {
    description: 'FIXED: one of the fixed denominations; RANGE: any amount from min to max',
  }),
  recipientCurrencyCode: Type.String(),
  minRecipientDenomination: NullableNumber,
  maxrecipientDenomination: NullableNumber,
  maxRecipientDenomination: NullableNumber,
  senderCurrencyCode: Type.String(),
  minSenderDenomination: NullableNumber,
  maxSenderDenomination: NullableNumber,
  fixedRecipientDenominations: Type.Array(Type.Number()),
  fixedSenderDenominations: Type.Array(Type.Number()),
  fixedRecipientToSenderDenominationsMap: Type.Array(Type.Record(Type.String(), Type.Number())),
  logoUrls: Type.Array(Type.String()),
  brand: Type.Object({ brandId: Type.Integer(), brandName: Type.String() }),
  category: Type.Object({ id: Type.Integer(), name: Type.String() }),
  country: Type.Object({ isoName: Type.String(), name: Type.String(), flagUrl: Type.String() }),
  redeemInstruction: Type.Object({ concise: Type.String(), verbose: Type.String() }),
  additionalRequirements: Type.Object({ userIdRequired: Type.Boolean() }),
});

/**
 * A product in the live service's shapes (an account with `shapes: service`, docs/compatibility.md):
 * `fixedRecipientToSenderDenominationsMap` is one object, recipient amount -> sender amount.
 */
export const ServiceProduct = Type.Object({
  ...Product.properties,
  fixedRecipientToSenderDenominationsMap: Type.Record(Type.String(), Type.Number()),
});

export const ProductPage = Paged(ServiceProduct);

/**
 * Each answer in the account's shapes (docs/compatibility.md): the first is `documented`, the second
 * `service`. A country's list is a bare array in both, and an empty one fits both (`anyOf`).
 */
export const ProductArray = Type.Array(Product);
export const ServiceProductArray = Type.Array(ServiceProduct);
export const ProductList = OneOf([ProductArray, ProductPage], { description: SHAPES_NOTE });
export const CountryProducts = Type.Union([ProductArray, ServiceProductArray], { description: SHAPES_NOTE });
// anyOf: the two differ by one field's type, which OpenAPI linters do not take as exclusive.
export const OneProduct = Type.Union([Product, ServiceProduct], { description: SHAPES_NOTE });

export const BrandRedeemInstruction = Type.Object({
  brandId: Type.Integer(),
  brandName: Type.String(),
  concise: Type.String(),
  verbose: Type.String(),
});

export const ProductRedeemInstruction = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  concise: Type.String(),
  verbose: Type.String(),
});

export const FxRate = Type.Object({
  senderCurrency: Type.String(),
  senderAmount: Type.Number(),
  recipientCurrency: Type.String(),
  recipientAmount: Type.Number(),
});

export const Discount = Type.Object({
  product: Type.Object({
    productId: Type.Integer(),
    productName: Type.String(),
    countryCode: Type.String(),
    global: Type.Boolean(),
  }),
  discountPercentage: Type.Number(),
});

export const DiscountPage = Paged(Discount);
export const DiscountArray = Type.Array(Discount);
export const DiscountList = OneOf([DiscountArray, DiscountPage], { description: SHAPES_NOTE });

// ---- requests

export const ProductIdParams = Type.Object({ productId: Type.Integer() });
export const CountryParams = Type.Object({ countrycode: Type.String() });
export const BrandIdParams = Type.Object({ brandId: Type.Integer() });

export const ProductsQuery = Type.Object({
  ...pagingQuery(200),
  productName: Type.Optional(Type.String()),
  countryCode: Type.Optional(Type.String()),
  productCategoryId: Type.Optional(Type.Integer()),
  includeRange: Type.Optional(Type.Boolean()),
  includeFixed: Type.Optional(Type.Boolean()),
});

export const FxQuery = Type.Object({
  currencyCode: Type.String({ pattern: '^[A-Za-z]{3}$' }),
  amount: Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,6})?$' }),
});

export const PagingQuery = Type.Object(pagingQuery(200));

import { Type } from 'typebox';
import { BalanceInfo, DateTimeText } from '../../http/schemas.ts';

/**
 * Response schemas of the gift card service, field for field as giftcards.md names them (its odd
 * spellings `maxrecipientDenomination` and `receipientPhone` included). They shape every answer.
 */
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const Category = Type.Object({ id: Type.Integer(), name: Type.String() });

export { GiftcardCountry as Country } from '../reference/index.ts';

export const Product = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  global: Type.Boolean(),
  supportsPreOrder: Type.Boolean(),
  status: Type.String(),
  senderFee: Type.Number(),
  senderFeePercentage: Type.Number(),
  discountPercentage: Type.Number(),
  denominationType: Type.String(),
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

export const Transaction = Type.Object({
  transactionId: Type.Integer(),
  amount: Type.Number(),
  discount: Type.Number(),
  currencyCode: Type.String(),
  fee: Type.Number(),
  customIdentifier: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  product: Type.Object({
    productId: Type.Integer(),
    productName: Type.String(),
    countryCode: Type.String(),
    quantity: Type.Integer(),
    unitPrice: Type.Number(),
    totalPrice: Type.Number(),
    currencyCode: Type.String(),
    brand: Type.Object({ brandId: Type.Integer(), brandName: Type.String() }),
  }),
  smsFee: Type.Number(),
  totalFee: Type.Number(),
  receipientPhone: NullableNumber,
  recipientPhone: Type.Union([Type.String(), Type.Null()]),
  recipientEmail: Type.Union([Type.String(), Type.Null()]),
  transactionCreatedTime: DateTimeText,
  preOrdered: Type.Boolean(),
  balanceInfo: BalanceInfo,
});

/** Documentation only: the cards route writes its JSON by hand so long digit strings stay exact. */
export const RedeemCodes = Type.Array(
  Type.Object({
    cardNumber: Type.Union([Type.Number(), Type.String()]),
    pinCode: Type.Union([Type.Number(), Type.String()]),
  }),
);

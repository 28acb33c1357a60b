import { Type } from 'typebox';

/**
 * The Country resource of both specs, in one place: the gift card service shows `continent`, the
 * top-up service shows the same fields without it.
 */
export const GiftcardCountry = Type.Object({
  isoName: Type.String(),
  name: Type.String(),
  continent: Type.String(),
  currencyCode: Type.String(),
  currencyName: Type.String(),
  currencySymbol: Type.String(),
  flag: Type.String(),
  callingCodes: Type.Array(Type.String()),
});

export const TopupCountry = Type.Omit(GiftcardCountry, ['continent']);

import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';
import type { Country } from '../../reference/index.ts';

/**
 * A catalog product as the service holds it in memory, and its Product resource (giftcards.md)
 * priced for one account currency. Recipient amounts keep the text they were written with; sender
 * amounts are converted with the FX factor of the pair and rounded to the account currency's minor
 * unit, the same numbers an order of that product is charged.
 */
export interface CatalogEntry {
  productId: number;
  productName: string;
  brandId: number;
  brandName: string;
  categoryId: number;
  categoryName: string;
  countryCode: string;
  global: boolean;
  supportsPreOrder: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  denominationType: 'FIXED' | 'RANGE';
  recipientCurrencyCode: string;
  fixedRecipientDenominations: string[];
  minRecipientDenomination: string | null;
  maxRecipientDenomination: string | null;
  /** USD */
  senderFee: string;
  senderFeePercentage: string;
  discountPercentage: string;
  userIdRequired: boolean;
  logoUrls: string[];
  concise: string;
  verbose: string;
}

/** Sender-side prices of one product in one account currency. */
export interface SenderPrices {
  currencyCode: string;
  senderFee: Dec;
  /** recipient amount text -> sender amount, for FIXED */
  fixed: Map<string, Dec>;
  min: Dec | null;
  max: Dec | null;
}

/**
 * `recipientToSender` is the cost of one recipient unit in the account currency (FX margin
 * included); `usdToSender` the same for USD, the currency the catalog's fees are written in.
 */
export function senderPrices(
  entry: CatalogEntry,
  currencyCode: string,
  recipientToSender: Dec,
  usdToSender: Dec,
): SenderPrices {
  const convert = (amount: string) => roundToMinor(dec(amount).times(recipientToSender), currencyCode);
  return {
    currencyCode,
    senderFee: roundToMinor(dec(entry.senderFee).times(usdToSender), currencyCode),
    fixed: new Map(entry.fixedRecipientDenominations.map((d) => [d, convert(d)])),
    min: entry.minRecipientDenomination === null ? null : convert(entry.minRecipientDenomination),
    max: entry.maxRecipientDenomination === null ? null : convert(entry.maxRecipientDenomination),
  };
}

/** The two-decimal key of `fixedRecipientToSenderDenominationsMap` ("25.00", "1500.00"). */
export function mapKey(recipientAmount: string): string {
  return dec(recipientAmount).toFixed(2);
}

const num = (value: string | null) => (value === null ? null : dec(value).toNumber());

export function productView(entry: CatalogEntry, prices: SenderPrices, country: Country | undefined) {
  return {
    productId: entry.productId,
    productName: entry.productName,
    global: entry.global,
    supportsPreOrder: entry.supportsPreOrder,
    status: entry.status,
    senderFee: prices.senderFee.toNumber(),
    senderFeePercentage: dec(entry.senderFeePercentage).toNumber(),
    discountPercentage: dec(entry.discountPercentage).toNumber(),
    denominationType: entry.denominationType,
    recipientCurrencyCode: entry.recipientCurrencyCode,
    minRecipientDenomination: num(entry.minRecipientDenomination),
    maxrecipientDenomination: num(entry.maxRecipientDenomination),
    // Compatibility alias (decisions §9): Reloadly's Java SDK reads the camel-case spelling.
    maxRecipientDenomination: num(entry.maxRecipientDenomination),
    senderCurrencyCode: prices.currencyCode,
    minSenderDenomination: prices.min?.toNumber() ?? null,
    maxSenderDenomination: prices.max?.toNumber() ?? null,
    fixedRecipientDenominations: entry.fixedRecipientDenominations.map((d) => dec(d).toNumber()),
    fixedSenderDenominations: [...prices.fixed.values()].map((d) => d.toNumber()),
    fixedRecipientToSenderDenominationsMap: [...prices.fixed.entries()].map(([r, s]) => ({
      [mapKey(r)]: s.toNumber(),
    })),
    logoUrls: entry.logoUrls,
    brand: { brandId: entry.brandId, brandName: entry.brandName },
    category: { id: entry.categoryId, name: entry.categoryName },
    country: {
      isoName: entry.countryCode,
      name: country?.name ?? entry.countryCode,
      flagUrl: country?.flag ?? '',
    },
    redeemInstruction: { concise: entry.concise, verbose: entry.verbose },
    additionalRequirements: { userIdRequired: entry.userIdRequired },
  };
}

export type ProductView = ReturnType<typeof productView>;

/**
 * The product in the live service's shapes (docs/compatibility.md): the denominations map as one
 * object, `{"10.00": 10, "25.00": 25}`, in the same order; every other field as documented.
 */
export function serviceProductView(view: ProductView) {
  return {
    ...view,
    fixedRecipientToSenderDenominationsMap: Object.assign(
      {},
      ...view.fixedRecipientToSenderDenominationsMap,
    ) as Record<string, number>,
  };
}

export function discountView(entry: CatalogEntry) {
  return {
    product: {
      productId: entry.productId,
      productName: entry.productName,
      countryCode: entry.countryCode,
      global: entry.global,
    },
    discountPercentage: dec(entry.discountPercentage).toNumber(),
  };
}

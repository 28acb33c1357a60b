import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { PRODUCT_ACCEPT } from '../harness/client.ts';
import { assertExactFields, BALANCE_INFO_FIELDS, type FieldSpec } from '../harness/fields.ts';

/**
 * Helpers of the gift card suites (a caller is `server.caller('giftcards')`): typed field checks
 * against the spec's tables, and the seed files read directly (so expectations are computed
 * independently of the server's code).
 */
export const ACCEPT = { accept: PRODUCT_ACCEPT.giftcards };

export const PRODUCT_FIELDS: FieldSpec = {
  productId: 'integer',
  productName: 'string',
  global: 'boolean',
  supportsPreOrder: 'boolean',
  status: 'string',
  senderFee: 'number',
  senderFeePercentage: 'number',
  discountPercentage: 'number',
  denominationType: 'string',
  recipientCurrencyCode: 'string',
  minRecipientDenomination: 'number|null',
  maxrecipientDenomination: 'number|null',
  // compatibility alias for Reloadly's Java SDK (decisions §9); the spec's spelling stays
  maxRecipientDenomination: 'number|null',
  senderCurrencyCode: 'string',
  minSenderDenomination: 'number|null',
  maxSenderDenomination: 'number|null',
  fixedRecipientDenominations: 'array',
  fixedSenderDenominations: 'array',
  fixedRecipientToSenderDenominationsMap: 'array',
  logoUrls: 'array',
  brand: 'object',
  category: 'object',
  country: 'object',
  redeemInstruction: 'object',
  additionalRequirements: 'object',
};

export function assertProduct(p: Record<string, any>) {
  assertExactFields(p, PRODUCT_FIELDS, `product ${p.productId}`);
  assertExactFields(p.brand, { brandId: 'integer', brandName: 'string' }, 'brand');
  assertExactFields(p.category, { id: 'integer', name: 'string' }, 'category');
  assertExactFields(p.country, { isoName: 'string', name: 'string', flagUrl: 'string' }, 'country');
  assertExactFields(p.redeemInstruction, { concise: 'string', verbose: 'string' }, 'redeemInstruction');
  assertExactFields(p.additionalRequirements, { userIdRequired: 'boolean' }, 'additionalRequirements');
  assert.ok(['FIXED', 'RANGE'].includes(p.denominationType));
  for (const entry of p.fixedRecipientToSenderDenominationsMap) {
    const keys = Object.keys(entry);
    assert.equal(keys.length, 1);
    assert.match(keys[0], /^\d+\.\d{2}$/);
    assert.equal(typeof entry[keys[0]], 'number');
  }
}

export const TRANSACTION_FIELDS: FieldSpec = {
  transactionId: 'integer',
  amount: 'number',
  discount: 'number',
  currencyCode: 'string',
  fee: 'number',
  customIdentifier: 'string|null',
  status: 'string',
  product: 'object',
  smsFee: 'number',
  totalFee: 'number',
  receipientPhone: 'number|null',
  // compatibility alias for Reloadly's Java SDK (decisions §9)
  recipientPhone: 'string|null',
  recipientEmail: 'string|null',
  transactionCreatedTime: 'string',
  preOrdered: 'boolean',
  balanceInfo: 'object',
};

export function assertTransaction(t: Record<string, any>) {
  assertExactFields(t, TRANSACTION_FIELDS, 'transaction');
  assertExactFields(
    t.product,
    {
      productId: 'integer',
      productName: 'string',
      countryCode: 'string',
      quantity: 'integer',
      unitPrice: 'number',
      totalPrice: 'number',
      currencyCode: 'string',
      brand: 'object',
    },
    'transaction.product',
  );
  assertExactFields(
    t.product.brand,
    { brandId: 'integer', brandName: 'string' },
    'transaction.product.brand',
  );
  assertExactFields(t.balanceInfo, BALANCE_INFO_FIELDS, 'balanceInfo');
  assert.match(t.transactionCreatedTime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.match(t.balanceInfo.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
}

const SEED = join(import.meta.dirname, '..', '..', 'data', 'seed');
export const seed = {
  products: JSON.parse(readFileSync(join(SEED, 'products.json'), 'utf8')) as any[],
  brands: JSON.parse(readFileSync(join(SEED, 'brands.json'), 'utf8')) as any[],
  categories: JSON.parse(readFileSync(join(SEED, 'categories.json'), 'utf8')) as any[],
  rates: JSON.parse(readFileSync(join(SEED, 'fx-rates.json'), 'utf8')).rates as Record<string, string>,
};

/** ISO 4217 minor units of the currencies the suites use. */
export const MINOR: Record<string, number> = { USD: 2, EUR: 2, JPY: 0, KWD: 3, GBP: 2, NGN: 2, INR: 2 };

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Units of `to` one unit of `from` costs at the seed's reference rates (no margin), to 12 digits. */
export function seedRate(from: string, to: string): Decimal {
  if (from === to) return new D(1);
  const units = (c: string) => new D(c === 'USD' ? '1' : seed.rates[c]);
  return units(to).div(units(from)).toSignificantDigits(12);
}

export function round(value: Decimal.Value, currency: string): Decimal {
  return new D(value).toDecimalPlaces(MINOR[currency] ?? 2, Decimal.ROUND_HALF_UP);
}

export { D };

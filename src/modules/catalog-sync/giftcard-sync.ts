import { minorUnitsOf } from '../../lib/currencies.ts';
import { type Dec, dec, roundToMinor } from '../../lib/money.ts';
import type { CatalogFile, CatalogProduct } from '../giftcards/index.ts';
import type { Fx } from '../reference/index.ts';
import type { UpstreamClient } from '../upstream/index.ts';
import { fxShortfallPercent, lowerDiscount, text } from './sync-margin.ts';
import { readAllPages, readUpstream } from './upstream-reads.ts';

/**
 * Pulls a gift card upstream's catalogue (every page of its active products, its categories and its
 * brands' redeem instructions) and turns it into the catalog file live serves: ids, names,
 * denominations and instructions as the upstream has them; prices with our margin on top
 * (`sync-margin.ts`): the margin, plus whatever our FX makes a face value cheaper than the upstream
 * sells it to us, lowers the discount and, past it, becomes a fee percentage. A product whose
 * currency we have no FX rate for cannot be priced and is left out (`skipped`).
 *
 * @example
 * const { file, skipped } = await pullGiftcardCatalogue(client, { fx, marginPercent: '2' });
 */
interface UpstreamProduct {
  productId: number;
  productName: string;
  global: boolean;
  supportsPreOrder?: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  senderFee: number;
  senderFeePercentage: number;
  discountPercentage: number;
  denominationType: 'FIXED' | 'RANGE';
  recipientCurrencyCode: string;
  minRecipientDenomination: number | null;
  maxRecipientDenomination: number | null;
  senderCurrencyCode: string;
  minSenderDenomination: number | null;
  maxSenderDenomination: number | null;
  fixedRecipientDenominations: number[] | null;
  fixedRecipientToSenderDenominationsMap?: Array<Record<string, number>> | Record<string, number> | null;
  logoUrls: string[] | null;
  brand: { brandId: number; brandName: string };
  category?: { id: number; name: string } | null;
  country: { isoName: string };
  redeemInstruction?: { concise?: string; verbose?: string } | null;
  additionalRequirements?: { userIdRequired?: boolean } | null;
}

interface UpstreamBrand {
  brandId: number;
  brandName: string;
  concise?: string;
  verbose?: string;
}

export interface PulledGiftcards {
  file: CatalogFile;
  skipped: Array<{ productId: number; reason: string }>;
}

/** Category of products the upstream gives none for (the original service's list has one always). */
const OTHER_CATEGORY = { id: 1, name: 'Other' };

export async function pullGiftcardCatalogue(
  client: UpstreamClient,
  deps: { fx: Fx; marginPercent: string },
): Promise<PulledGiftcards> {
  const [products, categories, brands] = await Promise.all([
    readAllPages<UpstreamProduct>(client, '/products'),
    readUpstream<Array<{ id: number; name: string }>>(client, '/product-categories'),
    readUpstream<UpstreamBrand[]>(client, '/redeem-instructions'),
  ]);
  const rated = new Set((await deps.fx.list()).map((r) => r.currencyCode));
  const skipped: PulledGiftcards['skipped'] = [];
  const out: CatalogProduct[] = [];
  for (const p of products) {
    if (p.status !== 'ACTIVE') continue;
    if (!rated.has(p.recipientCurrencyCode) || !rated.has(p.senderCurrencyCode)) {
      skipped.push({ productId: p.productId, reason: 'no FX rate for its currency' });
      continue;
    }
    out.push(await productOf(p, deps));
  }

  const categoryList = categories.length > 0 ? categories : [OTHER_CATEGORY];
  const categoryIds = new Set(categoryList.map((c) => c.id));
  for (const p of out) if (!categoryIds.has(p.categoryId)) p.categoryId = categoryList[0]!.id;
  // a brand's category and logo are its first product's (redeem instructions carry neither)
  const firstOfBrand = new Map<number, CatalogProduct>();
  for (const p of out) if (!firstOfBrand.has(p.brandId)) firstOfBrand.set(p.brandId, p);
  const brandById = new Map(brands.map((b) => [b.brandId, b]));
  for (const p of products) {
    if (!brandById.has(p.brand.brandId)) brandById.set(p.brand.brandId, { ...p.brand });
  }
  const brandList = [...brandById.values()]
    .filter((b) => firstOfBrand.has(b.brandId))
    .map((b) => ({
      brandId: b.brandId,
      brandName: b.brandName,
      categoryId: firstOfBrand.get(b.brandId)!.categoryId,
      concise: b.concise ?? '',
      verbose: b.verbose ?? '',
      logoUrl: firstOfBrand.get(b.brandId)!.logoUrls[0] ?? '',
    }));
  return { file: { categories: categoryList, brands: brandList, products: out }, skipped };
}

/** The upstream's sender prices of a product, by recipient face value, with the face values. */
function upstreamSenderPrices(p: UpstreamProduct): Array<[recipient: string, sender: Dec]> {
  if (p.denominationType === 'RANGE') {
    const pairs: Array<[string, Dec]> = [];
    if (p.minRecipientDenomination !== null && p.minSenderDenomination !== null)
      pairs.push([String(p.minRecipientDenomination), dec(p.minSenderDenomination)]);
    if (p.maxRecipientDenomination !== null && p.maxSenderDenomination !== null)
      pairs.push([String(p.maxRecipientDenomination), dec(p.maxSenderDenomination)]);
    return pairs;
  }
  const map = p.fixedRecipientToSenderDenominationsMap;
  const entries = Array.isArray(map) ? map.flatMap((m) => Object.entries(m)) : Object.entries(map ?? {});
  return entries.map(([r, s]) => [r, dec(s)]);
}

async function productOf(
  p: UpstreamProduct,
  deps: { fx: Fx; marginPercent: string },
): Promise<CatalogProduct> {
  const currency = p.senderCurrencyCode;
  // what one recipient unit costs us in the upstream's account currency, as our orders will price it
  const unitCost = await deps.fx.cost(1, p.recipientCurrencyCode, currency);
  const pairs = upstreamSenderPrices(p).map(([r, theirs]): [Dec, Dec] => [
    roundToMinor(dec(r).times(unitCost), currency),
    theirs,
  ]);
  const feePercent = text(dec(p.senderFeePercentage));
  const discountPercent = text(dec(p.discountPercentage));
  const minorUnit = dec(1).div(dec(10).pow(minorUnitsOf(currency)));
  const shortfall = fxShortfallPercent(pairs, feePercent, discountPercent, minorUnit);
  const extra = dec(deps.marginPercent).plus(shortfall);
  const terms = lowerDiscount(
    { discountPercentage: discountPercent, senderFeePercentage: feePercent },
    extra,
  );
  // the catalogue's fixed fee is in USD; the upstream shows it in its account currency
  const usdCost = await deps.fx.cost(1, 'USD', currency);
  const senderFeeUsd = currency === 'USD' ? dec(p.senderFee) : dec(p.senderFee).div(usdCost);
  const amount = (n: number | null) => (n === null ? null : text(dec(n)));
  return {
    productId: p.productId,
    productName: p.productName,
    brandId: p.brand.brandId,
    categoryId: p.category?.id ?? OTHER_CATEGORY.id,
    countryCode: p.country.isoName,
    global: p.global,
    supportsPreOrder: p.supportsPreOrder ?? false,
    status: 'ACTIVE',
    denominationType: p.denominationType,
    recipientCurrencyCode: p.recipientCurrencyCode,
    fixedRecipientDenominations:
      p.denominationType === 'FIXED' ? (p.fixedRecipientDenominations ?? []).map((d) => text(dec(d))) : [],
    minRecipientDenomination: p.denominationType === 'RANGE' ? amount(p.minRecipientDenomination) : null,
    maxRecipientDenomination: p.denominationType === 'RANGE' ? amount(p.maxRecipientDenomination) : null,
    senderFee: text(senderFeeUsd),
    senderFeePercentage: terms.senderFeePercentage,
    discountPercentage: terms.discountPercentage,
    userIdRequired: p.additionalRequirements?.userIdRequired ?? false,
    logoUrls: p.logoUrls ?? [],
    concise: p.redeemInstruction?.concise ?? '',
    verbose: p.redeemInstruction?.verbose ?? '',
  };
}

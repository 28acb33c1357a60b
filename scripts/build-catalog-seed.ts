/**
 * Builds the gift card catalog seed under `data/seed/`: countries, currencies, FX rates, categories,
 * brands, products and a README with the counts.
 *
 * Run: `npx tsx scripts/build-catalog-seed.ts [outputDir]` (default `data/seed`).
 *
 * Deterministic: no clock and no Math.random. Every random choice comes from a mulberry32 generator
 * seeded by a hash of a stable key (`SEED` plus the brand or product id), so re-running gives
 * byte-identical files and a change to one brand never shifts the values of another.
 *
 * Id scheme (see also the generated README):
 * - category and brand ids are written by hand in `catalog-seed/brands.ts` and never reused;
 * - productId = brandId × 1000 + slot, where slot is the ISO 3166-1 numeric code of the country
 *   (US 840, NG 566, XK 900 as it has none), or 990 / 991 for the brand's global USD / EUR product.
 *   Ids are therefore at least 1004, leaving 1–999 free (1–99 are the sandbox's own test products).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { continents, countries as countriesList } from 'countries-list';
import { currencies as countriesListCurrencies } from 'countries-list/currencies';
import currencyCodes from 'currency-codes';
import { Decimal } from 'decimal.js';
import type { Country as WorldCountry } from 'world-countries';
import { BRANDS, type BrandSeed, CATEGORIES, COUNTRY_GROUPS } from './catalog-seed/brands.ts';
import { FX_AS_OF, FX_NOTE, USD_RATES } from './catalog-seed/fx-rates.ts';
import { CATEGORY_TEMPLATES, fill, GLOBAL_SUFFIX, PLAYER_ID_TEMPLATE } from './catalog-seed/instructions.ts';

const require = createRequire(import.meta.url);
/** Loaded as JSON: the package's typings do not fit NodeNext default imports. */
const worldCountries: WorldCountry[] = require('world-countries/countries.json');

/** Fixed seed mixed into every random stream. Changing it regenerates every random value. */
const SEED = 'airgift-catalog-seed-v1';
const LOGO_BASE = 'https://cdn.airgift.dev/logos/brands/';
const FLAG_BASE = 'https://flagcdn.com/';

/** Slots of a brand's global products in its block of 1000 product ids. */
const GLOBAL_SLOT: Readonly<Record<string, number>> = { USD: 990, EUR: 991 };
/** ISO 3166-1 numeric codes for countries that have none in the source data. */
const NUMERIC_OVERRIDES: Readonly<Record<string, number>> = { XK: 900 };
/** Where a country's first listed currency is not the one goods are priced in. */
const CURRENCY_OVERRIDES: Readonly<Record<string, string>> = { PA: 'USD', ZW: 'USD' };
/** Where the source calling code is wrong (world-countries gives UM the code of Eswatini). */
const CALLING_CODE_OVERRIDES: Readonly<Record<string, readonly string[]>> = { UM: ['+1'] };
/**
 * Country names as the live service answers them, where they differ from `countries-list` (which
 * follows ISO 3166's newer short names): its official clients' recorded answers (`@reloadly/reloadly.airtime`'s
 * own tests expect "Turkey") are what existing clients compare with.
 */
const SERVICE_COUNTRY_NAMES: Record<string, string> = { TR: 'Turkey' };

/** Short country labels used in product names; other countries use their name. */
const PRODUCT_LABELS: Readonly<Record<string, string>> = { US: 'US', GB: 'UK', AE: 'UAE' };
/** Default issuing country of a global product, by currency. */
const GLOBAL_ISSUER: Readonly<Record<string, string>> = { USD: 'US', EUR: 'DE' };

/** USD-equivalent face values FIXED products draw from, by category id. */
const FACE_VALUES: Readonly<Record<number, readonly number[]>> = {
  1: [25, 50, 100, 200, 250, 500],
  2: [5, 10, 15, 20, 25, 50, 100],
  3: [10, 15, 25, 30, 50, 100],
  4: [10, 25, 50, 75, 100, 200],
  5: [10, 15, 20, 25, 50],
  6: [25, 50, 100, 150, 250, 500],
  7: [5, 10, 15, 20, 25, 50],
  8: [10, 25, 50, 100, 150, 200],
  9: [25, 50, 100, 200, 250, 500],
  10: [10, 20, 25, 50, 75, 100],
  11: [10, 15, 20, 25, 50, 100],
  12: [10, 25, 50, 75, 100, 150],
  13: [10, 15, 25, 50, 100],
  14: [10, 25, 50, 100, 250, 500],
  15: [10, 20, 25, 50, 100],
};
/** USD-equivalent upper bound of RANGE products, by category id (scaled by ½, 1 or 2 per product). */
const RANGE_MAX: Readonly<Record<number, number>> = {
  1: 500,
  2: 200,
  3: 150,
  4: 500,
  5: 150,
  6: 1000,
  7: 100,
  8: 500,
  9: 1000,
  10: 300,
  11: 200,
  12: 500,
  13: 200,
  14: 1000,
  15: 200,
};
const DEFAULT_RANGE_SHARE = 0.42;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** FNV-1a 32-bit hash of a string. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mulberry32: a small seeded PRNG yielding floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(key: string) {
    this.next = mulberry32(hashString(`${SEED}:${key}`));
  }
  float(): number {
    return this.next();
  }
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** k distinct elements, kept in their original order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const idx = items.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    return idx
      .slice(0, Math.min(k, items.length))
      .sort((a, b) => a - b)
      .map((i) => items[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// Output shapes

export interface CountrySeed {
  isoName: string;
  name: string;
  continent: string;
  currencyCode: string;
  currencyName: string;
  currencySymbol: string;
  flag: string;
  callingCodes: string[];
}

export interface CurrencySeed {
  code: string;
  name: string;
  minorUnits: number;
}

export interface BrandOut {
  brandId: number;
  brandName: string;
  categoryId: number;
  concise: string;
  verbose: string;
  logoUrl: string;
}

export interface ProductSeed {
  productId: number;
  productName: string;
  brandId: number;
  categoryId: number;
  countryCode: string;
  global: boolean;
  supportsPreOrder: boolean;
  status: 'ACTIVE';
  denominationType: 'FIXED' | 'RANGE';
  recipientCurrencyCode: string;
  fixedRecipientDenominations: string[];
  minRecipientDenomination: string | null;
  maxRecipientDenomination: string | null;
  senderFee: string;
  senderFeePercentage: string;
  discountPercentage: string;
  userIdRequired: boolean;
  logoUrls: string[];
  concise?: string;
  verbose?: string;
}

// ---------------------------------------------------------------------------------------------
// Countries and currencies

type CountriesListCode = keyof typeof countriesList;
type CurrencyListCode = keyof typeof countriesListCurrencies;

function listCountry(iso: string) {
  return countriesList[iso as CountriesListCode];
}

function listCurrency(code: string) {
  return countriesListCurrencies[code as CurrencyListCode] as
    | { name: string; symbol?: string; symbolNative?: string; decimals?: number }
    | undefined;
}

/** countries-list's symbol of a currency, its native symbol where the symbol is just the code (SLE: Le). */
function listSymbol(code: string): string | undefined {
  const listed = listCurrency(code);
  if (!listed) return undefined;
  return listed.symbol && listed.symbol !== code ? listed.symbol : (listed.symbolNative ?? listed.symbol);
}

/** world-countries' name and symbol of a currency, from the country it belongs to where possible. */
function worldCurrency(code: string, preferredIso: string): { name: string; symbol: string } | undefined {
  const own = worldCountries.find((c) => c.cca2 === preferredIso)?.currencies?.[code];
  if (own) return own;
  const home = worldCountries.find((c) => c.cca2 === code.slice(0, 2))?.currencies?.[code];
  if (home) return home;
  const sorted = [...worldCountries].sort((a, b) => a.cca2.localeCompare(b.cca2));
  for (const c of sorted) {
    const entry = c.currencies?.[code];
    if (entry) return entry;
  }
  return undefined;
}

function callingCodes(iso: string, world: WorldCountry): string[] {
  const override = CALLING_CODE_OVERRIDES[iso];
  if (override) return [...override];
  const { root, suffixes } = world.idd;
  const fromList = () => listCountry(iso).phone.map((p) => `+${p}`);
  if (!root) return fromList();
  if (suffixes.length <= 1) return [root + (suffixes[0] ?? '')];
  // NANP members with a few area codes (DO, PR): each area code is its own calling code.
  if (root === '+1' && suffixes.length <= 10) return suffixes.map((s) => root + s);
  // Shared or split codes (US and CA under +1, RU and KZ under +7, VA, SH, EH): the country code.
  return fromList();
}

function buildCountries(): CountrySeed[] {
  const out: CountrySeed[] = [];
  for (const world of worldCountries) {
    const iso = world.cca2;
    const listed = listCountry(iso);
    if (!listed) throw new Error(`countries-list has no ${iso}`);
    const currencyCode = CURRENCY_OVERRIDES[iso] ?? listed.currency[0];
    if (!currencyCode) continue; // Antarctica: no currency, nothing to sell there.
    const wc = worldCurrency(currencyCode, iso);
    const lc = listCurrency(currencyCode);
    out.push({
      isoName: iso,
      name: SERVICE_COUNTRY_NAMES[iso] ?? listed.name,
      continent: continents[listed.continent],
      currencyCode,
      currencyName: wc?.name ?? lc?.name ?? currencyCodes.code(currencyCode)?.currency ?? currencyCode,
      currencySymbol: wc?.symbol ?? listSymbol(currencyCode) ?? currencyCode,
      flag: `${FLAG_BASE}${iso.toLowerCase()}.svg`,
      callingCodes: callingCodes(iso, world),
    });
  }
  return out.sort((a, b) => a.isoName.localeCompare(b.isoName));
}

function buildCurrencies(countries: readonly CountrySeed[]): CurrencySeed[] {
  const codes = new Set(countries.map((c) => c.currencyCode));
  codes.add('USD');
  codes.add('EUR');
  return [...codes].sort().map((code) => {
    const iso = currencyCodes.code(code);
    const listed = listCurrency(code);
    const minorUnits = iso?.digits ?? listed?.decimals;
    const name = iso?.currency.trim() ?? listed?.name;
    if (minorUnits === undefined || !name) throw new Error(`no ISO 4217 data for ${code}`);
    return { code, name, minorUnits };
  });
}

function buildRates(currencies: readonly CurrencySeed[]) {
  const rates: Record<string, string> = {};
  for (const { code } of currencies) {
    const rate = USD_RATES[code];
    if (!rate) throw new Error(`no FX rate for ${code}`);
    rates[code] = rate;
  }
  return { asOf: FX_AS_OF, base: 'USD', note: FX_NOTE, rates };
}

// ---------------------------------------------------------------------------------------------
// Brands and products

export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'"]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Expands a brand's country list (`US CA @EUROZONE -LU`) into ISO codes, in first-seen order. */
function expandCountries(spec: string, seen: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const token of spec.split(/\s+/).filter(Boolean)) {
    if (token.startsWith('@')) {
      const group = token.slice(1);
      const members = COUNTRY_GROUPS[group];
      if (members === undefined || seen.includes(group)) throw new Error(`bad country group ${token}`);
      for (const iso of expandCountries(members, [...seen, group])) if (!out.includes(iso)) out.push(iso);
    } else if (token.startsWith('-')) {
      const at = out.indexOf(token.slice(1));
      if (at >= 0) out.splice(at, 1);
    } else if (/^[A-Z]{2}$/.test(token)) {
      if (!out.includes(token)) out.push(token);
    } else {
      throw new Error(`bad country token ${token}`);
    }
  }
  return out;
}

function instructionsOf(brand: BrandSeed): { concise: string; verbose: string } {
  const template = brand.userId ? PLAYER_ID_TEMPLATE : CATEGORY_TEMPLATES[brand.categoryId];
  if (!template) throw new Error(`no instruction template for category ${brand.categoryId}`);
  return {
    concise: brand.concise ?? fill(template.concise, { brand: brand.name }),
    verbose: brand.verbose ?? fill(template.verbose, { brand: brand.name }),
  };
}

function buildBrands(): BrandOut[] {
  return BRANDS.map((brand) => ({
    brandId: brand.id,
    brandName: brand.name,
    categoryId: brand.categoryId,
    ...instructionsOf(brand),
    logoUrl: `${LOGO_BASE}${slugify(brand.name)}.png`,
  }));
}

const NICE_MANTISSAS = ['1', '1.5', '2', '2.5', '3', '4', '5', '7.5'];

/**
 * The "round" amount nearest (by ratio) to `amount`, from 1, 1.5, 2, 2.5, 3, 4, 5, 7.5 × 10^k, with
 * at most `maxDecimals` decimals. Example: 1502.5 JPY → 1500; 7.67 KWD → 7.5; 15500 NGN → 15000.
 */
function niceAmount(amount: Decimal, maxDecimals: number): Decimal {
  const x = amount.toNumber();
  const exponent = Math.floor(Math.log10(x));
  let best: Decimal | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let e = exponent - 1; e <= exponent + 1; e++) {
    for (const m of NICE_MANTISSAS) {
      const candidate = new Decimal(m).times(new Decimal(10).pow(e));
      if (candidate.decimalPlaces() > maxDecimals) continue;
      const distance = Math.abs(Math.log(candidate.toNumber() / x));
      if (distance < bestDistance - 1e-12) {
        best = candidate;
        bestDistance = distance;
      }
    }
  }
  if (!best) throw new Error(`no round amount near ${amount.toString()}`);
  return best;
}

/** A value in [min, max] on a grid of `step`, as a string with two decimals. */
function gridValue(rng: Rng, min: number, max: number, step: number): string {
  const steps = Math.round((max - min) / step);
  return new Decimal(min).plus(new Decimal(step).times(rng.int(0, steps))).toFixed(2);
}

/** Drops the sentences of an instruction that limit a card to its country (wrong for a global card). */
function withoutCountryLimits(text: string): string {
  const sentences = text.match(/[^.!?]+[.!?]+/g) ?? [text];
  return sentences
    .filter((sentence) => !/(card’s|your) country/.test(sentence))
    .join('')
    .trim();
}

interface ProductContext {
  brand: BrandSeed;
  brandOut: BrandOut;
  brandRng: { discountBase: number };
  iso: string;
  currency: CurrencySeed;
  rate: Decimal;
  global: boolean;
  countryName: string;
}

function buildProduct(productId: number, ctx: ProductContext): ProductSeed {
  const { brand, currency, rate } = ctx;
  const rng = new Rng(`product:${productId}`);
  const rangeShare = brand.rangeShare ?? DEFAULT_RANGE_SHARE;
  const denominationType = rng.chance(rangeShare) ? 'RANGE' : 'FIXED';
  const faceValues = brand.faceValues ?? FACE_VALUES[brand.categoryId];
  const units = currency.minorUnits;

  let fixed: string[] = [];
  let min: string | null = null;
  let max: string | null = null;
  if (denominationType === 'FIXED') {
    const count = rng.int(Math.min(3, faceValues.length), Math.min(6, faceValues.length));
    const amounts = rng.sample(faceValues, count).map((usd) => niceAmount(rate.times(usd), units));
    amounts.sort((a, b) => a.comparedTo(b));
    fixed = amounts.filter((a, i) => i === 0 || !a.eq(amounts[i - 1])).map((a) => a.toFixed(units));
  } else {
    const rangeDecimals = Math.min(units, 2);
    const low = niceAmount(rate.times(Math.min(...faceValues)), rangeDecimals);
    let high = niceAmount(rate.times(RANGE_MAX[brand.categoryId] * rng.pick([0.5, 1, 1, 2])), rangeDecimals);
    if (high.lte(low)) high = niceAmount(low.times(10), rangeDecimals);
    min = low.toFixed(units);
    max = high.toFixed(units);
  }

  const senderFee = rng.chance(0.3) ? '0.00' : gridValue(rng, 0.05, 1, 0.05);
  const senderFeePercentage = rng.chance(0.4) ? '0.00' : gridValue(rng, 0.25, 3, 0.25);
  let discount = '0.00';
  if (!rng.chance(0.08)) {
    const value = ctx.brandRng.discountBase + (rng.float() - 0.5) * 3;
    const quarters = Math.min(40, Math.max(1, Math.round(value * 4)));
    discount = new Decimal(quarters).div(4).toFixed(2);
  }
  const supportsPreOrder = rng.chance(0.1);

  const label = ctx.global
    ? `Global${currency.code === 'USD' ? '' : ` ${currency.code}`}`
    : (PRODUCT_LABELS[ctx.iso] ?? ctx.countryName);
  const product: ProductSeed = {
    productId,
    productName: `${brand.name} ${label}`,
    brandId: brand.id,
    categoryId: brand.categoryId,
    countryCode: ctx.iso,
    global: ctx.global,
    supportsPreOrder,
    status: 'ACTIVE',
    denominationType,
    recipientCurrencyCode: currency.code,
    fixedRecipientDenominations: fixed,
    minRecipientDenomination: min,
    maxRecipientDenomination: max,
    senderFee,
    senderFeePercentage,
    discountPercentage: discount,
    userIdRequired: brand.userId === true,
    logoUrls: [ctx.brandOut.logoUrl],
  };
  if (ctx.global) {
    const values = { brand: brand.name, currency: currency.code };
    product.concise = withoutCountryLimits(ctx.brandOut.concise) + fill(GLOBAL_SUFFIX.concise, values);
    product.verbose = withoutCountryLimits(ctx.brandOut.verbose) + fill(GLOBAL_SUFFIX.verbose, values);
  }
  return product;
}

function buildProducts(
  countries: readonly CountrySeed[],
  currencies: readonly CurrencySeed[],
  brandsOut: readonly BrandOut[],
): ProductSeed[] {
  const countryByIso = new Map(countries.map((c) => [c.isoName, c]));
  const currencyByCode = new Map(currencies.map((c) => [c.code, c]));
  const numericByIso = new Map<string, number>();
  for (const w of worldCountries) {
    const numeric = NUMERIC_OVERRIDES[w.cca2] ?? Number(w.ccn3);
    if (!Number.isInteger(numeric) || numeric < 1 || numeric >= 990) throw new Error(`bad numeric ${w.cca2}`);
    numericByIso.set(w.cca2, numeric);
  }
  const rateOf = (code: string) => new Decimal(USD_RATES[code]);

  const products: ProductSeed[] = [];
  const ids = new Set<number>();
  const add = (product: ProductSeed) => {
    if (ids.has(product.productId)) throw new Error(`duplicate product id ${product.productId}`);
    ids.add(product.productId);
    products.push(product);
  };

  BRANDS.forEach((brand, index) => {
    const brandOut = brandsOut[index];
    const brandRng = new Rng(`brand:${brand.id}`);
    const brandState = { discountBase: 0.5 + brandRng.float() * 7.5 };
    for (const iso of expandCountries(brand.countries)) {
      const country = countryByIso.get(iso);
      if (!country) throw new Error(`${brand.name}: unknown country ${iso}`);
      const currency = currencyByCode.get(country.currencyCode)!;
      const productId = brand.id * 1000 + numericByIso.get(iso)!;
      add(
        buildProduct(productId, {
          brand,
          brandOut,
          brandRng: brandState,
          iso,
          currency,
          rate: rateOf(currency.code),
          global: false,
          countryName: country.name,
        }),
      );
    }
    for (const code of brand.global ?? []) {
      const iso = brand.globalIssuer ?? GLOBAL_ISSUER[code];
      const country = countryByIso.get(iso);
      if (!country) throw new Error(`${brand.name}: unknown issuer ${iso}`);
      add(
        buildProduct(brand.id * 1000 + GLOBAL_SLOT[code], {
          brand,
          brandOut,
          brandRng: brandState,
          iso,
          currency: currencyByCode.get(code)!,
          rate: rateOf(code),
          global: true,
          countryName: country.name,
        }),
      );
    }
  });
  return products.sort((a, b) => a.productId - b.productId);
}

// ---------------------------------------------------------------------------------------------
// README

function percent(part: number, whole: number): string {
  return `${((part * 100) / whole).toFixed(1)}%`;
}

function buildReadme(
  countries: readonly CountrySeed[],
  currencies: readonly CurrencySeed[],
  brands: readonly BrandOut[],
  products: readonly ProductSeed[],
): string {
  const fixed = products.filter((p) => p.denominationType === 'FIXED').length;
  const range = products.length - fixed;
  const global = products.filter((p) => p.global).length;
  const preOrder = products.filter((p) => p.supportsPreOrder).length;
  const userId = products.filter((p) => p.userIdRequired).length;
  const discounted = products.filter((p) => p.discountPercentage !== '0.00').length;
  const covered = new Set(products.map((p) => p.countryCode)).size;
  const productCurrencies = new Set(products.map((p) => p.recipientCurrencyCode)).size;
  const minId = Math.min(...products.map((p) => p.productId));
  const maxId = Math.max(...products.map((p) => p.productId));
  return `# Gift card catalog seed

Versioned, deterministic seed data of the gift card catalog: countries, currencies, reference FX
rates, categories, brands and products. Generated by \`scripts/build-catalog-seed.ts\`; checked by
\`scripts/check-catalog-seed.ts\`. Do not edit the JSON by hand: change the tables in
\`scripts/catalog-seed/\` and regenerate.

## Regenerate and check

\`\`\`sh
npx tsx scripts/build-catalog-seed.ts     # writes data/seed/*.json and this README
npx tsx scripts/check-catalog-seed.ts     # asserts the invariants; exits 1 on a violation
\`\`\`

The build uses no clock and no \`Math.random\`: each random choice comes from a mulberry32 generator
seeded with an FNV-1a hash of \`${SEED}\` plus a stable key (\`brand:<brandId>\` or
\`product:<productId>\`). Re-running gives byte-identical files, and the random values of one product
do not depend on any other brand or product. Sources: \`world-countries\`, \`countries-list\` and
\`currency-codes\` (as installed), plus the hand-written tables in \`scripts/catalog-seed/\`.

## Counts

| | |
|---|---|
| Countries (\`countries.json\`) | ${countries.length} |
| Currencies (\`currencies.json\`, each with a rate) | ${currencies.length} |
| Categories | ${CATEGORIES.length} |
| Brands | ${brands.length} |
| Products | ${products.length} |
| Countries with products | ${covered} |
| Recipient currencies used by products | ${productCurrencies} |
| FIXED / RANGE | ${fixed} (${percent(fixed, products.length)}) / ${range} (${percent(range, products.length)}) |
| \`global: true\` | ${global} (${percent(global, products.length)}) |
| \`supportsPreOrder: true\` | ${preOrder} (${percent(preOrder, products.length)}) |
| \`userIdRequired: true\` | ${userId} (${percent(userId, products.length)}) |
| \`discountPercentage\` > 0 | ${discounted} (${percent(discounted, products.length)}) |
| Product ids | ${minId} to ${maxId} |

## Id scheme

- **Category ids** and **brand ids** are written by hand in \`scripts/catalog-seed/brands.ts\`. A new
  brand is appended with the next free id; ids are never reused, so removing or adding a brand never
  renumbers another.
- **Product ids** are derived, never counted: \`productId = brandId × 1000 + slot\`, where \`slot\` is
  the ISO 3166-1 numeric code of the product's country (US 840, NG 566, DE 276; Kosovo, which has
  none, uses 900), or 990 for the brand's global USD product and 991 for its global EUR product.
  Example: Amazon (brand 1) US is 1840, Amazon Germany 1276; Steam (brand 4) Global is 4990. A
  product's id depends only on its brand and country, so adding a brand, or a country to a brand,
  leaves every existing id unchanged. One brand has at most one product per country.
- Every product id is at least 1004 (brand 1, Afghanistan's code 004), so ids 1–999 are never used;
  1–99 are kept for the sandbox test products the server defines.

## Files

All amounts are decimal **strings**, never binary floats. JSON is pretty-printed with 2-space indent.

### countries.json

Every ISO 3166-1 country known to \`world-countries\` except Antarctica (no currency), sorted by
\`isoName\`: \`{ isoName, name, continent, currencyCode, currencyName, currencySymbol, flag, callingCodes }\`.

- \`name\` and \`continent\` from \`countries-list\`; \`continent\` is the full English name.
- \`currencyCode\` is the first currency of \`countries-list\` (so Bulgaria is EUR), except Panama and
  Zimbabwe, which are priced in USD. \`currencyName\` and \`currencySymbol\` from \`world-countries\`
  (the country's own entry where it has one), else \`countries-list\`.
- \`callingCodes\` carry a leading \`+\`: \`world-countries\` root and suffix (\`+234\`); NANP members with a
  few area codes list each (\`+1809\`, \`+1829\`, \`+1849\`); shared codes list the country code only
  (US and CA \`+1\`, RU and KZ \`+7\`).
- \`flag\`: \`https://flagcdn.com/<iso>.svg\`.

### currencies.json

\`{ code, name, minorUnits }\` for every currency of \`countries.json\` (plus USD and EUR), sorted by code.
\`name\` and \`minorUnits\` from ISO 4217 via \`currency-codes\` (JPY 0, KWD 3, USD 2); XCG, newer than
that package, from \`countries-list\`.

### fx-rates.json

\`{ asOf, base: "USD", note, rates }\`: \`rates[C]\` = units of C per 1 USD, a decimal string with at
least 6 significant digits, for every currency of \`currencies.json\`. Approximate mid-market reference
values for the sandbox, hand-entered in \`scripts/catalog-seed/fx-rates.ts\`; not a live feed.

### categories.json

\`{ id, name }\`, ${CATEGORIES.length} categories. Usable as the \`productCategoryId\` filter.

### brands.json

\`{ brandId, brandName, categoryId, concise, verbose, logoUrl }\`, sorted by \`brandId\`. \`concise\`
and \`verbose\` are the brand's redeem instructions (a category template unless the brand has its own;
player-id top-ups share one). \`logoUrl\`: \`https://cdn.airgift.dev/logos/brands/<slug>.png\`.

### products.json

Sorted by \`productId\`:

\`\`\`
{ productId, productName, brandId, categoryId, countryCode, global, supportsPreOrder, status: "ACTIVE",
  denominationType: "FIXED" | "RANGE", recipientCurrencyCode,
  fixedRecipientDenominations: string[],          // FIXED only, ascending; [] for RANGE
  minRecipientDenomination: string | null,         // RANGE only
  maxRecipientDenomination: string | null,         // RANGE only
  senderFee: string,                               // USD, 0.00-1.00
  senderFeePercentage: string,                     // 0.00-3.00
  discountPercentage: string,                      // 0.00-10.00
  userIdRequired: boolean, logoUrls: string[],
  concise?: string, verbose?: string }             // only where they differ from the brand's
\`\`\`

- \`productName\` is \`<Brand> <Country>\` (US, UK and UAE abbreviated), or \`<Brand> Global\` /
  \`<Brand> Global EUR\` for global products.
- \`recipientCurrencyCode\` is the country's currency; global products are in USD or EUR and carry
  the issuing country in \`countryCode\` (US for USD unless the brand says otherwise, DE for EUR).
- Denominations are written with exactly the currency's minor units (\`"25.00"\`, \`"1500"\` JPY,
  \`"7.500"\` KWD). They are USD face values converted at the reference rate and rounded to a round
  amount (1, 1.5, 2, 2.5, 3, 4, 5 or 7.5 × 10^k), so their values have at most 2 decimals; RANGE
  bounds likewise, with min < max.
- \`userIdRequired\` marks player-id game top-ups; their orders need \`productAdditionalRequirements.userId\`.
- Products without \`concise\`/\`verbose\` use their brand's redeem instructions.
`;
}

// ---------------------------------------------------------------------------------------------

function writeJson(dir: string, name: string, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (Buffer.byteLength(text) > 4 * 1024 * 1024) throw new Error(`${name} is larger than 4 MiB`);
  writeFileSync(path.join(dir, name), text);
}

function main(): void {
  const outDir = path.resolve(process.argv[2] ?? 'data/seed');
  const countries = buildCountries();
  const currencies = buildCurrencies(countries);
  const fxRates = buildRates(currencies);
  const brands = buildBrands();
  const products = buildProducts(countries, currencies, brands);

  mkdirSync(outDir, { recursive: true });
  writeJson(outDir, 'countries.json', countries);
  writeJson(outDir, 'currencies.json', currencies);
  writeJson(outDir, 'fx-rates.json', fxRates);
  writeJson(outDir, 'categories.json', CATEGORIES);
  writeJson(outDir, 'brands.json', brands);
  writeJson(outDir, 'products.json', products);
  writeFileSync(path.join(outDir, 'README.md'), buildReadme(countries, currencies, brands, products));
  console.log(
    `wrote ${outDir}: ${countries.length} countries, ${currencies.length} currencies, ` +
      `${brands.length} brands, ${products.length} products`,
  );
}

main();

/**
 * Checks the gift card catalog seed under `data/seed/` (or the directory given as first argument):
 * ids unique and following the id scheme, every reference resolvable, denominations valid for their
 * currency, every currency priced, and the minimum sizes met. Prints every violation and exits 1 if
 * there is any, else prints a summary and exits 0.
 *
 * Run: `npx tsx scripts/check-catalog-seed.ts [dir]`
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Decimal } from 'decimal.js';
import type { BrandOut, CountrySeed, CurrencySeed, ProductSeed } from './build-catalog-seed.ts';

const MIN_BRANDS = 150;
const MIN_PRODUCTS = 1500;
const MIN_COUNTRIES_WITH_PRODUCTS = 80;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const RESERVED_PRODUCT_IDS = 99;
const CONTINENTS = new Set([
  'Africa',
  'Antarctica',
  'Asia',
  'Europe',
  'North America',
  'Oceania',
  'South America',
]);
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

// The seed files' shapes are the builder's: checked here against the same definitions it writes.
type Country = CountrySeed;
type Currency = CurrencySeed;
type Brand = BrandOut;
type Product = ProductSeed;
interface FxRates {
  asOf: string;
  base: string;
  note?: string;
  rates: Record<string, string>;
}
interface Category {
  id: number;
  name: string;
}

const dir = path.resolve(process.argv[2] ?? 'data/seed');
const errors: string[] = [];

function fail(message: string): void {
  errors.push(message);
}

function load<T>(name: string): T {
  const file = path.join(dir, name);
  const size = statSync(file).size;
  if (size > MAX_FILE_BYTES) fail(`${name}: ${size} bytes, more than 4 MiB`);
  const text = readFileSync(file, 'utf8');
  const value = JSON.parse(text) as T;
  if (text !== `${JSON.stringify(value, null, 2)}\n`)
    fail(`${name}: not pretty-printed with a 2-space indent`);
  return value;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** A decimal string, or null when it is not one. */
function decimalOf(value: unknown): Decimal | null {
  return typeof value === 'string' && DECIMAL.test(value) ? new Decimal(value) : null;
}

function significantDigits(value: string): number {
  return value.replace('.', '').replace(/^0+/, '').length;
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => unknown, label: string): void {
  const seen = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) fail(`${label}: duplicate ${String(k)}`);
    seen.add(k);
  }
}

function sortedBy<T>(items: readonly T[], key: (item: T) => string | number, label: string): void {
  for (let i = 1; i < items.length; i++) {
    if (key(items[i - 1]) > key(items[i])) {
      fail(`${label}: not sorted at ${String(key(items[i]))}`);
      return;
    }
  }
}

/** A decimal string within [min, max] with at most `decimals` decimals. */
function checkAmount(label: string, value: unknown, min: number, max: number, decimals: number): void {
  const d = decimalOf(value);
  if (!d) {
    fail(`${label}: ${JSON.stringify(value)} is not a decimal string`);
    return;
  }
  if (d.lt(min) || d.gt(max)) fail(`${label}: ${value} outside ${min}..${max}`);
  if (d.decimalPlaces() > decimals) fail(`${label}: ${value} has more than ${decimals} decimals`);
}

// ---------------------------------------------------------------------------------------------

const countries = load<Country[]>('countries.json');
const currencies = load<Currency[]>('currencies.json');
const fx = load<FxRates>('fx-rates.json');
const categories = load<Category[]>('categories.json');
const brands = load<Brand[]>('brands.json');
const products = load<Product[]>('products.json');

// Currencies and rates
uniqueBy(currencies, (c) => c.code, 'currencies');
sortedBy(currencies, (c) => c.code, 'currencies');
const currencyByCode = new Map(currencies.map((c) => [c.code, c]));
for (const c of currencies) {
  if (!/^[A-Z]{3}$/.test(c.code)) fail(`currency ${c.code}: bad code`);
  if (!nonEmpty(c.name)) fail(`currency ${c.code}: empty name`);
  if (!Number.isInteger(c.minorUnits) || c.minorUnits < 0 || c.minorUnits > 4) {
    fail(`currency ${c.code}: bad minorUnits ${c.minorUnits}`);
  }
}
for (const [code, units] of [
  ['USD', 2],
  ['JPY', 0],
  ['KWD', 3],
] as const) {
  if (currencyByCode.get(code)?.minorUnits !== units) fail(`currency ${code}: minorUnits should be ${units}`);
}
if (fx.base !== 'USD') fail(`fx-rates: base is ${fx.base}, expected USD`);
if (!DATE_TIME.test(fx.asOf)) fail(`fx-rates: asOf ${fx.asOf} is not yyyy-MM-dd HH:mm:ss`);
if (!nonEmpty(fx.note)) fail('fx-rates: missing note');
for (const c of currencies) {
  const rate = fx.rates[c.code];
  const d = decimalOf(rate);
  if (!d || d.lte(0)) fail(`fx-rates: ${c.code} has no positive decimal rate (${JSON.stringify(rate)})`);
  else if (significantDigits(rate) < 6)
    fail(`fx-rates: ${c.code} rate ${rate} has fewer than 6 significant digits`);
}
for (const code of Object.keys(fx.rates)) {
  if (!currencyByCode.has(code)) fail(`fx-rates: ${code} is not in currencies.json`);
}
if (fx.rates.USD && !new Decimal(fx.rates.USD).eq(1)) fail('fx-rates: USD rate is not 1');

// Countries
uniqueBy(countries, (c) => c.isoName, 'countries');
sortedBy(countries, (c) => c.isoName, 'countries');
if (countries.length < 240) fail(`countries: only ${countries.length}`);
const countryByIso = new Map(countries.map((c) => [c.isoName, c]));
for (const c of countries) {
  const label = `country ${c.isoName}`;
  if (!/^[A-Z]{2}$/.test(c.isoName)) fail(`${label}: bad isoName`);
  for (const field of ['name', 'currencyName', 'currencySymbol'] as const) {
    if (!nonEmpty(c[field])) fail(`${label}: empty ${field}`);
  }
  if (!CONTINENTS.has(c.continent)) fail(`${label}: bad continent ${c.continent}`);
  if (!currencyByCode.has(c.currencyCode))
    fail(`${label}: currency ${c.currencyCode} not in currencies.json`);
  if (c.flag !== `https://flagcdn.com/${c.isoName.toLowerCase()}.svg`) fail(`${label}: bad flag ${c.flag}`);
  if (!Array.isArray(c.callingCodes) || c.callingCodes.length === 0) fail(`${label}: no callingCodes`);
  else
    for (const code of c.callingCodes)
      if (!/^\+\d{1,7}$/.test(code)) fail(`${label}: bad calling code ${code}`);
}
for (const [iso, codes] of [
  ['US', ['+1']],
  ['NG', ['+234']],
  ['DO', ['+1809', '+1829', '+1849']],
] as const) {
  const got = countryByIso.get(iso)?.callingCodes.join(',');
  if (got !== codes.join(',')) fail(`country ${iso}: callingCodes ${got}, expected ${codes.join(',')}`);
}

// Categories
uniqueBy(categories, (c) => c.id, 'categories');
uniqueBy(categories, (c) => c.name, 'category names');
const categoryIds = new Set(categories.map((c) => c.id));
for (const c of categories) {
  if (!Number.isInteger(c.id) || c.id < 1) fail(`category ${c.id}: bad id`);
  if (!nonEmpty(c.name)) fail(`category ${c.id}: empty name`);
}

// Brands
if (brands.length < MIN_BRANDS) fail(`brands: ${brands.length}, fewer than ${MIN_BRANDS}`);
uniqueBy(brands, (b) => b.brandId, 'brands');
uniqueBy(brands, (b) => b.brandName.toLowerCase(), 'brand names');
uniqueBy(brands, (b) => b.logoUrl, 'brand logos');
sortedBy(brands, (b) => b.brandId, 'brands');
const brandById = new Map(brands.map((b) => [b.brandId, b]));
for (const b of brands) {
  const label = `brand ${b.brandId}`;
  if (!Number.isInteger(b.brandId) || b.brandId < 1) fail(`${label}: bad id`);
  if (!nonEmpty(b.brandName)) fail(`${label}: empty name`);
  if (!categoryIds.has(b.categoryId)) fail(`${label}: unknown category ${b.categoryId}`);
  if (!nonEmpty(b.concise)) fail(`${label}: empty concise`);
  if (!nonEmpty(b.verbose)) fail(`${label}: empty verbose`);
  if (!/^https:\/\/cdn\.airgift\.dev\/logos\/brands\/[a-z0-9]+(-[a-z0-9]+)*\.png$/.test(b.logoUrl)) {
    fail(`${label}: bad logoUrl ${b.logoUrl}`);
  }
}

// Products
if (products.length < MIN_PRODUCTS) fail(`products: ${products.length}, fewer than ${MIN_PRODUCTS}`);
uniqueBy(products, (p) => p.productId, 'products');
uniqueBy(products, (p) => p.productName, 'product names');
sortedBy(products, (p) => p.productId, 'products');
const brandsWithProducts = new Set<number>();
for (const p of products) {
  const label = `product ${p.productId}`;
  if (!Number.isInteger(p.productId) || p.productId <= RESERVED_PRODUCT_IDS) {
    fail(`${label}: id must be an integer above ${RESERVED_PRODUCT_IDS}`);
  }
  if (Math.floor(p.productId / 1000) !== p.brandId)
    fail(`${label}: id does not start with brand ${p.brandId}`);
  if (!nonEmpty(p.productName)) fail(`${label}: empty name`);
  const brand = brandById.get(p.brandId);
  if (!brand) fail(`${label}: unknown brand ${p.brandId}`);
  else {
    brandsWithProducts.add(p.brandId);
    if (!p.productName.startsWith(`${brand.brandName} `))
      fail(`${label}: name does not start with its brand`);
    if (brand.categoryId !== p.categoryId) fail(`${label}: category differs from its brand's`);
  }
  if (!categoryIds.has(p.categoryId)) fail(`${label}: unknown category ${p.categoryId}`);
  const country = countryByIso.get(p.countryCode);
  if (!country) fail(`${label}: unknown country ${p.countryCode}`);
  for (const field of ['global', 'supportsPreOrder', 'userIdRequired'] as const) {
    if (typeof p[field] !== 'boolean') fail(`${label}: ${field} is not a boolean`);
  }
  if (p.status !== 'ACTIVE') fail(`${label}: status ${p.status}`);

  const currency = currencyByCode.get(p.recipientCurrencyCode);
  if (!currency) fail(`${label}: currency ${p.recipientCurrencyCode} not in currencies.json`);
  if (!fx.rates[p.recipientCurrencyCode]) fail(`${label}: no FX rate for ${p.recipientCurrencyCode}`);
  if (p.global) {
    if (p.recipientCurrencyCode !== 'USD' && p.recipientCurrencyCode !== 'EUR') {
      fail(`${label}: global product in ${p.recipientCurrencyCode}`);
    }
  } else if (country && country.currencyCode !== p.recipientCurrencyCode) {
    fail(
      `${label}: currency ${p.recipientCurrencyCode}, country ${p.countryCode} uses ${country.currencyCode}`,
    );
  }
  const units = currency?.minorUnits ?? 2;

  if (p.denominationType === 'FIXED') {
    const list = p.fixedRecipientDenominations;
    if (!Array.isArray(list) || list.length === 0) fail(`${label}: FIXED without denominations`);
    else {
      let previous: Decimal | null = null;
      for (const value of list) {
        checkAmount(`${label} denomination`, value, 0, Number.MAX_SAFE_INTEGER, units);
        const d = decimalOf(value);
        if (d?.lte(0)) fail(`${label}: denomination ${value} is not positive`);
        if (d && previous && d.lte(previous)) fail(`${label}: denominations not strictly ascending`);
        previous = d;
      }
    }
    if (p.minRecipientDenomination !== null || p.maxRecipientDenomination !== null) {
      fail(`${label}: FIXED with min/max set`);
    }
  } else if (p.denominationType === 'RANGE') {
    if (!Array.isArray(p.fixedRecipientDenominations) || p.fixedRecipientDenominations.length !== 0) {
      fail(`${label}: RANGE with fixed denominations`);
    }
    const decimals = Math.min(units, 2);
    checkAmount(`${label} min`, p.minRecipientDenomination, 0, Number.MAX_SAFE_INTEGER, decimals);
    checkAmount(`${label} max`, p.maxRecipientDenomination, 0, Number.MAX_SAFE_INTEGER, decimals);
    const min = decimalOf(p.minRecipientDenomination);
    const max = decimalOf(p.maxRecipientDenomination);
    if (min?.lte(0)) fail(`${label}: min is not positive`);
    if (min && max && !min.lt(max)) fail(`${label}: min ${min} is not below max ${max}`);
  } else {
    fail(`${label}: bad denominationType ${p.denominationType}`);
  }

  checkAmount(`${label} senderFee`, p.senderFee, 0, 1, 2);
  checkAmount(`${label} senderFeePercentage`, p.senderFeePercentage, 0, 3, 2);
  checkAmount(`${label} discountPercentage`, p.discountPercentage, 0, 10, 2);
  if (!Array.isArray(p.logoUrls) || p.logoUrls.length === 0 || !p.logoUrls.every(nonEmpty)) {
    fail(`${label}: no logoUrls`);
  }
  for (const field of ['concise', 'verbose'] as const) {
    if (p[field] !== undefined && !nonEmpty(p[field])) fail(`${label}: empty ${field}`);
  }
}
for (const b of brands) if (!brandsWithProducts.has(b.brandId)) fail(`brand ${b.brandId}: no products`);
const covered = new Set(products.map((p) => p.countryCode));
if (covered.size < MIN_COUNTRIES_WITH_PRODUCTS) {
  fail(`products cover ${covered.size} countries, fewer than ${MIN_COUNTRIES_WITH_PRODUCTS}`);
}
for (const code of ['JPY', 'KRW', 'KWD', 'BHD', 'OMR']) {
  if (!products.some((p) => p.recipientCurrencyCode === code)) fail(`no product in ${code}`);
}

// ---------------------------------------------------------------------------------------------

if (errors.length > 0) {
  for (const e of errors.slice(0, 100)) console.error(`✗ ${e}`);
  if (errors.length > 100) console.error(`… and ${errors.length - 100} more`);
  console.error(`catalog seed check FAILED: ${errors.length} violation(s) in ${dir}`);
  process.exit(1);
}
const share = (n: number) => `${((n * 100) / products.length).toFixed(1)}%`;
const fixed = products.filter((p) => p.denominationType === 'FIXED').length;
console.log(
  `catalog seed OK: ${countries.length} countries, ${currencies.length} currencies, ` +
    `${categories.length} categories, ${brands.length} brands, ${products.length} products in ` +
    `${covered.size} countries; FIXED ${share(fixed)}, RANGE ${share(products.length - fixed)}, ` +
    `global ${share(products.filter((p) => p.global).length)}, ` +
    `pre-order ${share(products.filter((p) => p.supportsPreOrder).length)}, ` +
    `userId ${share(products.filter((p) => p.userIdRequired).length)}`,
);

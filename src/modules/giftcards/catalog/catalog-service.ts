import type { Environment } from '../../../db/schema.ts';
import { AppError, type ErrorDetail } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { type Dec, dec, roundToMinor } from '../../../lib/money.ts';
import type { Countries, Fx } from '../../reference/index.ts';
import {
  isSandboxTestProduct,
  SANDBOX_BRAND,
  SANDBOX_TEST_PRODUCTS,
} from '../fulfilment/sandbox-test-values.ts';
import { type CatalogFile, type CatalogImport, readSeedCatalog } from './catalog-file.ts';
import type { CatalogRepository } from './catalog-repository.ts';
import {
  type CatalogEntry,
  discountView,
  productView,
  type SenderPrices,
  senderPrices,
} from './product-view.ts';

/**
 * The gift card catalog, served alike by live and sandbox (the sandbox also lists its test products,
 * ids 1–99). The whole catalog is held in memory (a few thousand products), reloaded at once after an
 * admin change in this process and at least every 30 s (another server of the deployment may have
 * changed it); sender-side prices are cached per account currency for as long as the FX table is.
 * Lists show ACTIVE products only; a product that is unknown, inactive or a sandbox test product on
 * live answers 400 INVALID_REQUEST on the by-id routes (giftcards.md: "incorrect product id").
 */
const PRICE_CACHE_MS = 30_000;
const CATALOG_CACHE_MS = 30_000;

export interface ProductFilter {
  productName?: string;
  countryCode?: string;
  productCategoryId?: number;
  includeRange?: boolean;
  includeFixed?: boolean;
}

interface Loaded {
  categories: { id: number; name: string }[];
  brands: CatalogFile['brands'];
  products: CatalogEntry[];
  byId: Map<number, CatalogEntry>;
}

export function createCatalogService(deps: {
  repository: CatalogRepository;
  fx: Fx;
  countries: Countries;
  clock: Clock;
}) {
  const { repository, fx, countries, clock } = deps;
  const nowMs = () => clock.now().getTime();
  let loaded: Promise<Loaded> | null = null;
  let loadedAt = 0;
  let prices = { at: 0, byKey: new Map<string, SenderPrices>() };

  async function load(): Promise<Loaded> {
    const file = await repository.readAll();
    const categoryName = new Map(file.categories.map((c) => [c.id, c.name]));
    const brandById = new Map(file.brands.map((b) => [b.brandId, b]));
    const products = file.products.map((p): CatalogEntry => {
      const brand = brandById.get(p.brandId);
      return {
        ...p,
        brandName: brand?.brandName ?? '',
        categoryName: categoryName.get(p.categoryId) ?? '',
        concise: p.concise ?? brand?.concise ?? '',
        verbose: p.verbose ?? brand?.verbose ?? '',
      };
    });
    return {
      categories: file.categories,
      brands: file.brands,
      products,
      byId: new Map(products.map((p) => [p.productId, p])),
    };
  }

  function catalog(): Promise<Loaded> {
    if (nowMs() - loadedAt > CATALOG_CACHE_MS) loaded = null;
    if (!loaded) loadedAt = nowMs();
    loaded ??= load().catch((error) => {
      loaded = null;
      throw error;
    });
    return loaded;
  }

  function invalidate() {
    loaded = null;
    prices = { at: 0, byKey: new Map() };
  }

  const visibleIn = (env: Environment) => (p: CatalogEntry) =>
    p.status === 'ACTIVE' && (env === 'sandbox' || !isSandboxTestProduct(p.productId));

  async function pricesOf(entry: CatalogEntry, currency: string): Promise<SenderPrices> {
    if (nowMs() - prices.at > PRICE_CACHE_MS) prices = { at: nowMs(), byKey: new Map() };
    const key = `${currency}:${entry.productId}`;
    let found = prices.byKey.get(key);
    if (!found) {
      const [recipientToSender, usdToSender] = await Promise.all([
        fx.cost(1, entry.recipientCurrencyCode, currency),
        fx.cost(1, 'USD', currency),
      ]);
      found = senderPrices(entry, currency, recipientToSender, usdToSender);
      prices.byKey.set(key, found);
    }
    return found;
  }

  async function view(entry: CatalogEntry, currency: string) {
    return productView(entry, await pricesOf(entry, currency), countries.find(entry.countryCode));
  }

  /** The product an id names, as a client of `env` may see it; 400 otherwise. */
  async function find(env: Environment, productId: number): Promise<CatalogEntry> {
    const entry = (await catalog()).byId.get(productId);
    if (!entry || !visibleIn(env)(entry)) {
      throw new AppError('INVALID_REQUEST', `Product ${productId} does not exist or is not active`, [
        { field: 'productId', issue: 'unknown or inactive product' },
      ]);
    }
    return entry;
  }

  async function list(env: Environment, filter: ProductFilter, page: { limit: number; offset: number }) {
    const name = filter.productName?.toLowerCase();
    const country = filter.countryCode?.toUpperCase();
    const matches = (await catalog()).products.filter(
      (p) =>
        visibleIn(env)(p) &&
        (name === undefined || p.productName.toLowerCase().includes(name)) &&
        (country === undefined || p.countryCode === country) &&
        (filter.productCategoryId === undefined || p.categoryId === filter.productCategoryId) &&
        (filter.includeRange !== false || p.denominationType !== 'RANGE') &&
        (filter.includeFixed !== false || p.denominationType !== 'FIXED'),
    );
    return matches.slice(page.offset, page.offset + page.limit);
  }

  return {
    countries: () => countries.all,

    /** A country by ISO code, else 404. */
    country(code: string) {
      const found = countries.find(code);
      if (!found) throw new AppError('RESOURCE_NOT_FOUND', `No country ${code}`);
      return found;
    },

    /** decisions §5: `amount` of recipient currency `currencyCode`, priced in the account currency. */
    async fxRate(accountCurrency: string, currencyCode: string, amount: string) {
      const code = currencyCode.toUpperCase();
      const cost = await fx.cost(amount, code, accountCurrency);
      return {
        senderCurrency: accountCurrency,
        senderAmount: roundToMinor(cost, accountCurrency).toNumber(),
        recipientCurrency: code,
        recipientAmount: dec(amount).toNumber(),
      };
    },

    find,
    /** A product by id whatever its status (the operator's routes); undefined when there is none. */
    entry: async (productId: number): Promise<CatalogEntry | undefined> =>
      (await catalog()).byId.get(productId),
    pricesOf,
    invalidate,

    async categories() {
      return (await catalog()).categories.map((c) => ({ id: c.id, name: c.name }));
    },

    async products(
      env: Environment,
      currency: string,
      filter: ProductFilter,
      page: { limit: number; offset: number },
    ) {
      return Promise.all((await list(env, filter, page)).map((p) => view(p, currency)));
    },

    async product(env: Environment, currency: string, productId: number) {
      return view(await find(env, productId), currency);
    },

    async redeemInstructions(env: Environment) {
      const { brands } = await catalog();
      return brands
        .filter((b) => env === 'sandbox' || b.brandId !== SANDBOX_BRAND.brandId)
        .map((b) => ({ brandId: b.brandId, brandName: b.brandName, concise: b.concise, verbose: b.verbose }));
    },

    /** Compatibility (decisions §9): one brand's instructions, the older path the Java SDK calls. */
    async brandRedeemInstruction(env: Environment, brandId: number) {
      const brand = (await this.redeemInstructions(env)).find((b) => b.brandId === brandId);
      if (!brand) throw new AppError('RESOURCE_NOT_FOUND', `No brand ${brandId}`);
      return brand;
    },

    async redeemInstruction(env: Environment, productId: number) {
      const p = await find(env, productId);
      return { productId: p.productId, productName: p.productName, concise: p.concise, verbose: p.verbose };
    },

    async discounts(env: Environment, page: { limit: number; offset: number }) {
      const all = (await catalog()).products.filter(
        (p) => visibleIn(env)(p) && dec(p.discountPercentage).gt(0),
      );
      return all.slice(page.offset, page.offset + page.limit).map(discountView);
    },

    async discount(env: Environment, productId: number) {
      return discountView(await find(env, productId));
    },

    /** Start: the repository's seed catalog into empty tables, and the sandbox test products always. */
    async seed() {
      // Empty tables get the whole seed; the sandbox test products, defined in code, are written again
      // at every start so they always match the documented test values.
      const file = (await repository.isEmpty())
        ? readSeedCatalog()
        : { categories: [], brands: [], products: [] };
      await repository.upsert({
        categories: file.categories,
        brands: [...file.brands, SANDBOX_BRAND],
        products: [...SANDBOX_TEST_PRODUCTS, ...file.products],
      });
      invalidate();
    },

    /**
     * Admin import: upserts a catalog file after checking it hangs together. A list left out is an
     * empty one: a single product needs only `products` when its category and brand exist.
     */
    async import(partial: CatalogImport) {
      const file: CatalogFile = {
        categories: partial.categories ?? [],
        brands: partial.brands ?? [],
        products: partial.products ?? [],
      };
      const current = await catalog();
      const categoryIds = new Set([
        ...current.categories.map((c) => c.id),
        ...file.categories.map((c) => c.id),
      ]);
      const brandIds = new Set([
        ...current.brands.map((b) => b.brandId),
        ...file.brands.map((b) => b.brandId),
      ]);
      const problems: ErrorDetail[] = [];
      for (const b of file.brands) {
        if (!categoryIds.has(b.categoryId))
          problems.push({ field: `brands[${b.brandId}]`, issue: 'unknown categoryId' });
      }
      // A product's currency needs an FX rate (the table covers every ISO currency the seed uses).
      const rated = new Set((await fx.list()).map((r) => r.currencyCode));
      for (const p of file.products) problems.push(...productProblems(p, brandIds, categoryIds, rated));
      if (problems.length > 0)
        throw new AppError('INVALID_REQUEST', 'The catalog file is invalid', problems.slice(0, 50));
      await repository.upsert(file);
      invalidate();
      return {
        categories: file.categories.length,
        brands: file.brands.length,
        products: file.products.length,
      };
    },

    export: () => repository.readAll(),

    async setStatus(productId: number, status: 'ACTIVE' | 'INACTIVE') {
      if (!(await repository.setStatus(productId, status))) {
        throw new AppError('RESOURCE_NOT_FOUND', `Product ${productId} does not exist`);
      }
      invalidate();
      return { productId, status };
    },
  };
}

function productProblems(
  p: CatalogFile['products'][number],
  brandIds: Set<number>,
  categoryIds: Set<number>,
  rated: Set<string>,
): ErrorDetail[] {
  const field = `products[${p.productId}]`;
  const out: ErrorDetail[] = [];
  if (!brandIds.has(p.brandId)) out.push({ field, issue: 'unknown brandId' });
  if (!categoryIds.has(p.categoryId)) out.push({ field, issue: 'unknown categoryId' });
  if (!rated.has(p.recipientCurrencyCode)) out.push({ field, issue: 'recipientCurrencyCode has no FX rate' });
  const range = p.denominationType === 'RANGE';
  const min: Dec | null = p.minRecipientDenomination === null ? null : dec(p.minRecipientDenomination);
  const max: Dec | null = p.maxRecipientDenomination === null ? null : dec(p.maxRecipientDenomination);
  if (range && (!min || !max || min.lte(0) || max.lt(min)))
    out.push({ field, issue: 'RANGE needs 0 < min <= max' });
  if (!range && (p.fixedRecipientDenominations.length === 0 || min || max)) {
    out.push({ field, issue: 'FIXED needs denominations and no min/max' });
  }
  if (dec(p.senderFeePercentage).gte(100) || dec(p.discountPercentage).gte(100)) {
    out.push({ field, issue: 'percentages must be below 100' });
  }
  return out;
}

export type CatalogService = ReturnType<typeof createCatalogService>;

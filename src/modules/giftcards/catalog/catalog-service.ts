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
 * The gift card catalog. The sandbox serves the seeded catalog (the giftcard_* tables) with its test
 * products, ids 1–99. Live serves the catalogue synced from the upstream (`live_catalogues`, written
 * by modules/catalog-sync/) when there is one, with the upstream's ids; else the seeded catalog as
 * well, without the sandbox test products. Each is held in memory (a few thousand products), reloaded
 * at once after an admin change or a sync (the `catalog` change topic) and at least every 30 s;
 * sender-side prices are cached per account currency for as long as the FX table is.
 * Lists show ACTIVE products only; a product that is unknown, inactive or a sandbox test product on
 * a seeded live catalog answers 400 INVALID_REQUEST on the by-id routes (giftcards.md: "incorrect
 * product id").
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
  /** true: the synced live catalogue (every product in it is the upstream's, test ids included) */
  synced: boolean;
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
  const kept: Record<Environment, { loaded: Promise<Loaded> | null; at: number }> = {
    live: { loaded: null, at: 0 },
    sandbox: { loaded: null, at: 0 },
  };
  let prices = { at: 0, byKey: new Map<string, SenderPrices>() };

  async function load(env: Environment): Promise<Loaded> {
    const live = env === 'live' ? await repository.readLive() : null;
    return indexed(live ?? (await repository.readAll()), live !== null);
  }

  function indexed(file: CatalogFile, synced: boolean): Loaded {
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
      synced,
      categories: file.categories,
      brands: file.brands,
      products,
      byId: new Map(products.map((p) => [p.productId, p])),
    };
  }

  /** The catalog `env` serves. */
  function catalog(env: Environment = 'sandbox'): Promise<Loaded> {
    const k = kept[env];
    if (nowMs() - k.at > CATALOG_CACHE_MS) k.loaded = null;
    if (!k.loaded) k.at = nowMs();
    if (!k.loaded) {
      const loading: Promise<Loaded> = load(env).catch((error) => {
        if (k.loaded === loading) k.loaded = null;
        throw error;
      });
      k.loaded = loading;
    }
    const loading = k.loaded;
    return loading;
  }

  function invalidate() {
    kept.live.loaded = null;
    kept.sandbox.loaded = null;
    // prices are per product id, which the two catalogs share: both go
    prices = { at: 0, byKey: new Map() };
  }

  /** Listed and orderable: ACTIVE, and on a seeded live catalog not a sandbox test product. */
  const visibleIn = (env: Environment, c: Loaded) => (p: CatalogEntry) =>
    p.status === 'ACTIVE' && (env === 'sandbox' || c.synced || !isSandboxTestProduct(p.productId));

  async function pricesOf(entry: CatalogEntry, currency: string): Promise<SenderPrices> {
    if (nowMs() - prices.at > PRICE_CACHE_MS) prices = { at: nowMs(), byKey: new Map() };
    // the entry's terms are in the key: the live and sandbox catalogs may price one id differently
    const key = `${currency}:${entry.productId}:${entry.discountPercentage}:${entry.senderFeePercentage}:${entry.senderFee}:${entry.recipientCurrencyCode}`;
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
    const c = await catalog(env);
    const entry = c.byId.get(productId);
    if (!entry || !visibleIn(env, c)(entry)) {
      throw new AppError('INVALID_REQUEST', `Product ${productId} does not exist or is not active`, [
        { field: 'productId', issue: 'unknown or inactive product' },
      ]);
    }
    return entry;
  }

  /** Every visible product the filter matches, in catalog order. */
  async function matching(env: Environment, filter: ProductFilter) {
    const name = filter.productName?.toLowerCase();
    const country = filter.countryCode?.toUpperCase();
    const c = await catalog(env);
    return c.products.filter(
      (p) =>
        visibleIn(env, c)(p) &&
        (name === undefined || p.productName.toLowerCase().includes(name)) &&
        (country === undefined || p.countryCode === country) &&
        (filter.productCategoryId === undefined || p.categoryId === filter.productCategoryId) &&
        (filter.includeRange !== false || p.denominationType !== 'RANGE') &&
        (filter.includeFixed !== false || p.denominationType !== 'FIXED'),
    );
  }

  /** Every visible product with a discount. */
  async function discounted(env: Environment) {
    const c = await catalog(env);
    return c.products.filter((p) => visibleIn(env, c)(p) && dec(p.discountPercentage).gt(0));
  }

  /** One page of `products` and how many match in all (the paged wrapper's total). */
  async function productPage(
    env: Environment,
    currency: string,
    filter: ProductFilter,
    page: { limit: number; offset: number },
  ) {
    const matches = await matching(env, filter);
    const items = await Promise.all(
      matches.slice(page.offset, page.offset + page.limit).map((p) => view(p, currency)),
    );
    return { items, total: matches.length };
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
    /**
     * A product by id whatever its status (the operator's routes, which route live products): the
     * live catalog's, else the seeded one's; undefined when there is none.
     */
    entry: async (productId: number): Promise<CatalogEntry | undefined> =>
      (await catalog('live')).byId.get(productId) ?? (await catalog('sandbox')).byId.get(productId),
    pricesOf,
    invalidate,

    async categories(env: Environment) {
      return (await catalog(env)).categories.map((c) => ({ id: c.id, name: c.name }));
    },

    async products(
      env: Environment,
      currency: string,
      filter: ProductFilter,
      page: { limit: number; offset: number },
    ) {
      return (await productPage(env, currency, filter, page)).items;
    },

    productPage,

    async product(env: Environment, currency: string, productId: number) {
      return view(await find(env, productId), currency);
    },

    async redeemInstructions(env: Environment) {
      const { brands, synced } = await catalog(env);
      return brands
        .filter((b) => env === 'sandbox' || synced || b.brandId !== SANDBOX_BRAND.brandId)
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
      return (await this.discountPage(env, page)).items;
    },

    /** One page of `discounts` and how many products have one (the paged wrapper's total). */
    async discountPage(env: Environment, page: { limit: number; offset: number }) {
      const all = await discounted(env);
      return { items: all.slice(page.offset, page.offset + page.limit).map(discountView), total: all.length };
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
      const current = await catalog('sandbox');
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

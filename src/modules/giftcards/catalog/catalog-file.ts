import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Static, Type } from 'typebox';
import { SEED_DIR } from '../../reference/index.ts';

/**
 * The catalog file: the seed format of `data/seed/{categories,brands,products}.json` in one object.
 * `POST /admin/catalog/import` takes it, `GET /admin/catalog/export` gives it back, and the first
 * start loads it from the seed directory. Amounts are decimal strings, never binary floats.
 */
const Amount = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,6})?$' });

export const CatalogCategory = Type.Object({ id: Type.Integer({ minimum: 1 }), name: Type.String() });

export const CatalogBrand = Type.Object({
  brandId: Type.Integer({ minimum: 1 }),
  brandName: Type.String({ minLength: 1 }),
  categoryId: Type.Integer({ minimum: 1 }),
  concise: Type.String(),
  verbose: Type.String(),
  logoUrl: Type.String(),
});

export const CatalogProduct = Type.Object({
  productId: Type.Integer({ minimum: 1 }),
  productName: Type.String({ minLength: 1 }),
  brandId: Type.Integer({ minimum: 1 }),
  categoryId: Type.Integer({ minimum: 1 }),
  countryCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  global: Type.Boolean(),
  supportsPreOrder: Type.Boolean(),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  denominationType: Type.Union([Type.Literal('FIXED'), Type.Literal('RANGE')]),
  recipientCurrencyCode: Type.String({ pattern: '^[A-Z]{3}$' }),
  fixedRecipientDenominations: Type.Array(Amount),
  minRecipientDenomination: Type.Union([Amount, Type.Null()]),
  maxRecipientDenomination: Type.Union([Amount, Type.Null()]),
  senderFee: Amount,
  senderFeePercentage: Amount,
  discountPercentage: Amount,
  userIdRequired: Type.Boolean(),
  logoUrls: Type.Array(Type.String()),
  concise: Type.Optional(Type.String()),
  verbose: Type.Optional(Type.String()),
});

export const CatalogFile = Type.Object({
  categories: Type.Array(CatalogCategory),
  brands: Type.Array(CatalogBrand),
  products: Type.Array(CatalogProduct),
});

/**
 * What `POST /admin/catalog/import` takes: a catalog file, any of whose three lists may be left out
 * (one product for a category and brand that exist needs only `products`); at least one is given.
 */
export const CatalogImport = Type.Object(
  {
    categories: Type.Optional(Type.Array(CatalogCategory)),
    brands: Type.Optional(Type.Array(CatalogBrand)),
    products: Type.Optional(Type.Array(CatalogProduct)),
  },
  { minProperties: 1 },
);

export type CatalogCategory = Static<typeof CatalogCategory>;
export type CatalogImport = Static<typeof CatalogImport>;
export type CatalogBrand = Static<typeof CatalogBrand>;
export type CatalogProduct = Static<typeof CatalogProduct>;
export type CatalogFile = Static<typeof CatalogFile>;

/** The versioned seed catalog of the repository. */
export function readSeedCatalog(dir = SEED_DIR): CatalogFile {
  const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
  return {
    categories: read('categories.json'),
    brands: read('brands.json'),
    products: read('products.json'),
  };
}

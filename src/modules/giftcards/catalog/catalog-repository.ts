import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { dec } from '../../../lib/money.ts';
import { readLiveCatalogue } from '../../upstream/index.ts';
import type { CatalogBrand, CatalogCategory, CatalogFile, CatalogProduct } from './catalog-file.ts';

/**
 * The catalog's SQL. Reads the whole catalog at once (a few thousand rows: the service keeps it in
 * memory), writes a catalog file by upsert inside one transaction, and flips a product's status.
 */
export function catalogRepository(db: Kysely<Database>) {
  async function isEmpty(): Promise<boolean> {
    const row = await db.selectFrom('giftcard_products').select('id').limit(1).executeTakeFirst();
    return !row;
  }

  /**
   * Upserts every category, brand and product of `file` (with its denominations) in one transaction.
   * Each table is one statement over a JSON parameter: thousands of rows in a few milliseconds.
   */
  async function upsert(file: CatalogFile): Promise<void> {
    const json = (rows: unknown[]) => JSON.stringify(rows);
    await db.transaction().execute(async (trx) => {
      await sql`
        INSERT INTO giftcard_categories (id, name)
        SELECT id, name FROM json_to_recordset(${json(file.categories)}::json) AS x(id integer, name text)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name`.execute(trx);
      await sql`
        INSERT INTO giftcard_brands (id, name, category_id, redeem_concise, redeem_verbose, logo_url)
        SELECT "brandId", "brandName", "categoryId", "concise", "verbose", "logoUrl"
        FROM json_to_recordset(${json(file.brands)}::json)
          AS x("brandId" integer, "brandName" text, "categoryId" integer, "concise" text, "verbose" text, "logoUrl" text)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, category_id = excluded.category_id,
          redeem_concise = excluded.redeem_concise, redeem_verbose = excluded.redeem_verbose,
          logo_url = excluded.logo_url`.execute(trx);
      await sql`
        INSERT INTO giftcard_products (id, name, brand_id, category_id, country_code, global, supports_pre_order,
          status, denomination_type, recipient_currency_code, min_recipient_denomination,
          max_recipient_denomination, sender_fee, sender_fee_percentage, discount_percentage, user_id_required,
          logo_urls, redeem_concise, redeem_verbose)
        SELECT "productId", "productName", "brandId", "categoryId", "countryCode", global, "supportsPreOrder",
          status, "denominationType", "recipientCurrencyCode", "minRecipientDenomination",
          "maxRecipientDenomination", "senderFee", "senderFeePercentage", "discountPercentage", "userIdRequired",
          ARRAY(SELECT json_array_elements_text("logoUrls")), "concise", "verbose"
        FROM json_to_recordset(${json(file.products)}::json) AS x("productId" integer, "productName" text,
          "brandId" integer, "categoryId" integer, "countryCode" text, global boolean, "supportsPreOrder" boolean,
          status text, "denominationType" text, "recipientCurrencyCode" text, "minRecipientDenomination" numeric,
          "maxRecipientDenomination" numeric, "senderFee" numeric, "senderFeePercentage" numeric,
          "discountPercentage" numeric, "userIdRequired" boolean, "logoUrls" json, "concise" text, "verbose" text)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, brand_id = excluded.brand_id,
          category_id = excluded.category_id, country_code = excluded.country_code, global = excluded.global,
          supports_pre_order = excluded.supports_pre_order, status = excluded.status,
          denomination_type = excluded.denomination_type,
          recipient_currency_code = excluded.recipient_currency_code,
          min_recipient_denomination = excluded.min_recipient_denomination,
          max_recipient_denomination = excluded.max_recipient_denomination, sender_fee = excluded.sender_fee,
          sender_fee_percentage = excluded.sender_fee_percentage,
          discount_percentage = excluded.discount_percentage, user_id_required = excluded.user_id_required,
          logo_urls = excluded.logo_urls, redeem_concise = excluded.redeem_concise,
          redeem_verbose = excluded.redeem_verbose`.execute(trx);
      const denominations = file.products.map((p) => ({
        id: p.productId,
        amounts: p.fixedRecipientDenominations,
      }));
      await sql`
        DELETE FROM giftcard_denominations
        WHERE product_id IN (SELECT id FROM json_to_recordset(${json(denominations)}::json) AS x(id integer))`.execute(
        trx,
      );
      await sql`
        INSERT INTO giftcard_denominations (product_id, amount)
        SELECT x.id, a.amount::numeric
        FROM json_to_recordset(${json(denominations)}::json) AS x(id integer, amounts json),
          json_array_elements_text(x.amounts) AS a(amount)
        ON CONFLICT DO NOTHING`.execute(trx);
    });
  }

  async function setStatus(productId: number, status: 'ACTIVE' | 'INACTIVE'): Promise<boolean> {
    const result = await db
      .updateTable('giftcard_products')
      .set({ status })
      .where('id', '=', productId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The whole catalog in the file format, ids ascending. */
  async function readAll(): Promise<CatalogFile> {
    const [categories, brands, products, denominations] = await Promise.all([
      db.selectFrom('giftcard_categories').selectAll().orderBy('id').execute(),
      db.selectFrom('giftcard_brands').selectAll().orderBy('id').execute(),
      db.selectFrom('giftcard_products').selectAll().orderBy('id').execute(),
      db.selectFrom('giftcard_denominations').selectAll().execute(),
    ]);
    const fixed = new Map<number, string[]>();
    for (const d of denominations) {
      const list = fixed.get(d.product_id) ?? [];
      list.push(d.amount);
      fixed.set(d.product_id, list);
    }
    for (const list of fixed.values()) list.sort((a, b) => dec(a).comparedTo(dec(b)));
    return {
      categories: categories.map((c): CatalogCategory => ({ id: c.id, name: c.name })),
      brands: brands.map(
        (b): CatalogBrand => ({
          brandId: b.id,
          brandName: b.name,
          categoryId: b.category_id,
          concise: b.redeem_concise,
          verbose: b.redeem_verbose,
          logoUrl: b.logo_url,
        }),
      ),
      products: products.map(
        (p): CatalogProduct => ({
          productId: p.id,
          productName: p.name,
          brandId: p.brand_id,
          categoryId: p.category_id,
          countryCode: p.country_code,
          global: p.global,
          supportsPreOrder: p.supports_pre_order,
          status: p.status,
          denominationType: p.denomination_type,
          recipientCurrencyCode: p.recipient_currency_code,
          fixedRecipientDenominations: fixed.get(p.id) ?? [],
          minRecipientDenomination: p.min_recipient_denomination,
          maxRecipientDenomination: p.max_recipient_denomination,
          senderFee: p.sender_fee,
          senderFeePercentage: p.sender_fee_percentage,
          discountPercentage: p.discount_percentage,
          userIdRequired: p.user_id_required,
          logoUrls: p.logo_urls,
          ...(p.redeem_concise === null ? {} : { concise: p.redeem_concise }),
          ...(p.redeem_verbose === null ? {} : { verbose: p.redeem_verbose }),
        }),
      ),
    };
  }

  /**
   * The live catalogue synced from the gift card upstream (migration 0011), or null before the first
   * sync and whenever the snapshot is not from the upstream configured now (none, or another URL).
   */
  async function readLive(): Promise<CatalogFile | null> {
    return (await readLiveCatalogue(db, 'giftcards')) as CatalogFile | null;
  }

  return { isEmpty, upsert, setStatus, readAll, readLive };
}

export type CatalogRepository = ReturnType<typeof catalogRepository>;

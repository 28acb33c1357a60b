import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError, type ErrorDetail } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { dec } from '../../../lib/money.ts';
import { formatDateTime, parseDateTime } from '../../../lib/time-format.ts';
import type { CatalogEntry } from '../catalog/product-view.ts';
import { isSandboxTestProduct } from '../fulfilment/sandbox-test-values.ts';
import { type CodeRow, parseCodesFile } from './codes-file.ts';
import type { ProviderRoute, StockRepository } from './stock-repository.ts';

/**
 * The operator's side of the code stock: loading a codes file (all of it in one transaction, or
 * nothing), the counts per product and face value, and which provider fulfils each live product.
 * Codes are sealed with the card codes key before they reach the database; the card number's keyed
 * fingerprint makes a code already in stock (same product and card number) a refusal.
 */
export type RouteChoice = ProviderRoute | 'default';

export interface StockLine {
  productId: number;
  productName: string;
  currencyCode: string;
  provider: RouteChoice;
  faceValue: number;
  available: number;
  sold: number;
  expired: number;
  /** cards that waiting pre-orders need */
  preOrdered: number;
}

const MAX_CODE_LENGTH = 200;
const MAX_PROBLEMS = 50;
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function createStockService(deps: {
  db: Kysely<Database>;
  repository: StockRepository;
  codec: CardCodec;
  clock: Clock;
  /** A product of the catalog by id, whatever its status; undefined when there is none. */
  product(productId: number): Promise<CatalogEntry | undefined>;
}) {
  const { db, repository, codec, clock } = deps;

  /** A product live can sell (the sandbox's test products are not live's); else 404. */
  async function liveProduct(productId: number): Promise<CatalogEntry> {
    const product = isSandboxTestProduct(productId) ? undefined : await deps.product(productId);
    if (!product) throw new AppError('RESOURCE_NOT_FOUND', `Product ${productId} does not exist`);
    return product;
  }

  function faceValueProblem(product: CatalogEntry, text: string): string | null {
    if (!DECIMAL.test(text) || dec(text).lte(0)) return `faceValue "${text}" is not a positive amount`;
    const value = dec(text);
    const currency = product.recipientCurrencyCode;
    if (product.denominationType === 'FIXED') {
      return product.fixedRecipientDenominations.some((d) => dec(d).equals(value))
        ? null
        : `faceValue ${text} is not one of the product's ${product.fixedRecipientDenominations.join(', ')} ${currency}`;
    }
    const min = dec(product.minRecipientDenomination ?? 0);
    const max = dec(product.maxRecipientDenomination ?? 0);
    return value.lt(min) || value.gt(max) || value.decimalPlaces() > 2
      ? `faceValue ${text} is outside the product's ${min.toFixed()} to ${max.toFixed()} ${currency}`
      : null;
  }

  function expiryOf(text: string | null, now: Date): Date | null | string {
    if (text === null) return null;
    const at = ISO_WITH_ZONE.test(text) ? new Date(text) : parseDateTime(text);
    if (!at || Number.isNaN(at.getTime())) {
      return `expiresAt "${text}" is not yyyy-MM-dd[ HH:mm:ss] (UTC) or ISO 8601 with a zone`;
    }
    return at <= now ? `expiresAt ${text} has passed` : at;
  }

  function codeProblem(name: string, value: string, required: boolean): string | null {
    if (required && value === '') return `${name} is empty`;
    if (value.length > MAX_CODE_LENGTH) return `${name} is longer than ${MAX_CODE_LENGTH} characters`;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(value)) return `${name} holds a control character`;
    return null;
  }

  async function lines(productId?: number): Promise<StockLine[]> {
    const [counts, waiting, routes] = await Promise.all([
      repository.counts(clock.now(), productId),
      repository.waiting(productId),
      repository.routes(),
    ]);
    // face values are stored normalised (dec().toFixed()), so "25" of a code and of an order meet
    const byKey = new Map(counts.map((c) => [`${c.productId}/${c.faceValue}`, c]));
    for (const key of waiting.keys()) {
      const [id, faceValue] = key.split('/');
      if (!byKey.has(key))
        byKey.set(key, { productId: Number(id), faceValue, available: 0, sold: 0, expired: 0 });
    }
    const out: StockLine[] = [];
    for (const [key, c] of byKey) {
      const product = await deps.product(c.productId);
      out.push({
        productId: c.productId,
        productName: product?.productName ?? '',
        currencyCode: product?.recipientCurrencyCode ?? '',
        provider: routes.get(c.productId) ?? 'default',
        faceValue: dec(c.faceValue).toNumber(),
        available: c.available,
        sold: c.sold,
        expired: c.expired,
        preOrdered: waiting.get(key) ?? 0,
      });
    }
    return out.sort((a, b) => a.productId - b.productId || a.faceValue - b.faceValue);
  }

  return {
    /**
     * Loads a codes file into one product's stock: every row checked first (each problem names its
     * line), then every code inserted in one transaction, so a file goes in whole or not at all.
     * Pre-orders waiting for this product are handed to the worker's next run.
     */
    async import(productId: number, csv: string) {
      const product = await liveProduct(productId);
      const now = clock.now();
      const { rows, problems } = parseCodesFile(csv);
      const good: (CodeRow & { expires: Date | null; hmac: string })[] = [];
      const firstLine = new Map<string, number>();
      for (const row of rows) {
        const issues = [
          codeProblem('cardNumber', row.cardNumber, true),
          codeProblem('pinCode', row.pinCode, false),
          faceValueProblem(product, row.faceValue),
        ];
        const expires = expiryOf(row.expiresAt, now);
        if (typeof expires === 'string') issues.push(expires);
        const hmac = await codec.fingerprint(row.cardNumber);
        const earlier = firstLine.get(hmac);
        if (earlier !== undefined) issues.push(`cardNumber repeats line ${earlier}`);
        else firstLine.set(hmac, row.line);
        const found = issues.filter((i): i is string => i !== null);
        for (const issue of found) problems.push({ field: `line ${row.line}`, issue });
        if (found.length === 0) good.push({ ...row, expires: expires as Date | null, hmac });
      }
      if (problems.length === 0 && rows.length === 0) {
        problems.push({ field: 'line 2', issue: 'the file has no codes' });
      }
      const refuse = (list: ErrorDetail[]) => {
        const sorted = list.sort((a, b) => Number(a.field.slice(5)) - Number(b.field.slice(5)));
        return new AppError(
          'INVALID_REQUEST',
          `The codes file is refused, nothing was imported: ${sorted[0].field}: ${sorted[0].issue}`,
          sorted.slice(0, MAX_PROBLEMS),
        );
      };
      if (problems.length > 0) throw refuse(problems);

      const sealed = await Promise.all(
        good.map(async (row) => ({
          product_id: productId,
          face_value: dec(row.faceValue).toFixed(),
          card_number: await codec.seal(row.cardNumber),
          pin_code: await codec.seal(row.pinCode),
          card_number_hmac: row.hmac,
          expires_at: row.expires,
          imported_at: now,
        })),
      );
      try {
        await db.transaction().execute(async (trx) => {
          const existing = await repository.existing(
            trx,
            productId,
            good.map((r) => r.hmac),
          );
          if (existing.size > 0) {
            throw refuse(
              good
                .filter((r) => existing.has(r.hmac))
                .map((r) => ({
                  field: `line ${r.line}`,
                  issue: `cardNumber is already in stock for product ${productId}`,
                })),
            );
          }
          await repository.insertCodes(trx, sealed);
          await repository.wakePreOrders(trx, productId);
        });
      } catch (error) {
        // another import of the same card committed between the check and the insert
        if ((error as { code?: string }).code === '23505') {
          throw new AppError(
            'INVALID_REQUEST',
            'The codes file is refused, nothing was imported: a card number is already in stock',
            [{ field: 'cardNumber', issue: `already in stock for product ${productId}` }],
          );
        }
        throw error;
      }
      return { productId, imported: sealed.length, stock: await lines(productId) };
    },

    /** Counts per product and face value (one product, or every product with codes or pre-orders). */
    async show(productId?: number) {
      if (productId !== undefined) await liveProduct(productId);
      return { items: await lines(productId), at: formatDateTime(clock.now()) };
    },

    /** Routes one live product: `stock`, `upstream` or back to the live `default`. */
    async setProvider(productId: number, provider: RouteChoice) {
      await liveProduct(productId);
      await repository.setRoute(productId, provider === 'default' ? null : provider, clock.now());
      return { productId, provider };
    },
  };
}

export type StockService = ReturnType<typeof createStockService>;

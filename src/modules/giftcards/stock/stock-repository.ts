import { type Insertable, type Kysely, sql } from 'kysely';
import { executePrepared } from '../../../db/prepared.ts';
import type { Database, GiftcardStockTable } from '../../../db/schema.ts';

/**
 * The SQL of the code stock: product routes, the codes (sealed), the draw, the orders the stock took.
 * Every code keeps its row forever; selling one writes its transaction id, in the order's transaction.
 */
export type ProviderRoute = 'stock' | 'upstream';

export interface SealedCode {
  card_number: string;
  pin_code: string;
}

/** A live order's draw from the stock: its codes, and its stock order recorded (see `drawOrders`). */
export interface StockDraw {
  transactionId: number;
  productId: number;
  faceValue: string;
  quantity: number;
  createdAt: Date;
  now: Date;
}

export interface StockCount {
  productId: number;
  faceValue: string;
  available: number;
  sold: number;
  expired: number;
}

/** Rows per statement: a statement has at most 65,535 parameters (7 per inserted code). */
const CHUNK = 5000;

export function stockRepository(db: Kysely<Database>) {
  return {
    async route(productId: number, trx: Kysely<Database> = db): Promise<ProviderRoute | null> {
      const row = await trx
        .selectFrom('giftcard_product_providers')
        .select('provider')
        .where('product_id', '=', productId)
        .executeTakeFirst();
      return row?.provider ?? null;
    },

    /**
     * A live order's quick look, in one statement: its product's route, and how many unsold,
     * unexpired codes of its face value there are, up to `atMost` (what `available` counts).
     */
    async routeAndAvailable(
      productId: number,
      faceValue: string,
      now: Date,
      atMost: number,
    ): Promise<{ route: ProviderRoute | null; available: number }> {
      const { rows } = await executePrepared(
        db,
        sql<{ route: ProviderRoute | null; available: number }>`
        SELECT (SELECT provider FROM giftcard_product_providers WHERE product_id = ${productId}) AS route,
          (SELECT count(*)::int FROM (
            SELECT 1 FROM giftcard_stock
            WHERE product_id = ${productId} AND face_value = ${faceValue}::numeric
              AND transaction_id IS NULL AND (expires_at IS NULL OR expires_at > ${now})
            LIMIT ${atMost}) AS unsold) AS available`,
      );
      return { route: rows[0].route, available: Number(rows[0].available) };
    },

    /**
     * The routes of several products in one statement (a batch's live orders, each asking again in
     * its transaction: `live-provider.ts`); a product without a route is not in the map.
     */
    async routesOf(trx: Kysely<Database>, productIds: number[]): Promise<Map<number, ProviderRoute>> {
      const { rows } = await executePrepared(
        trx,
        sql<{ product_id: number; provider: ProviderRoute }>`
        SELECT product_id, provider FROM giftcard_product_providers
        WHERE product_id IN (SELECT value::int FROM json_array_elements_text(${JSON.stringify(productIds)}::json))`,
      );
      return new Map(rows.map((r) => [Number(r.product_id), r.provider]));
    },

    /** Stores a product's route; null removes it (the live default). */
    async setRoute(productId: number, route: ProviderRoute | null, now: Date): Promise<void> {
      if (route === null) {
        await db.deleteFrom('giftcard_product_providers').where('product_id', '=', productId).execute();
        return;
      }
      await db
        .insertInto('giftcard_product_providers')
        .values({ product_id: productId, provider: route, updated_at: now })
        .onConflict((oc) => oc.column('product_id').doUpdateSet({ provider: route, updated_at: now }))
        .execute();
    },

    async routes(): Promise<Map<number, ProviderRoute>> {
      const rows = await db
        .selectFrom('giftcard_product_providers')
        .select(['product_id', 'provider'])
        .execute();
      return new Map(rows.map((r) => [r.product_id, r.provider]));
    },

    /** The fingerprints among `hmacs` already in stock for the product. */
    async existing(trx: Kysely<Database>, productId: number, hmacs: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      // in chunks: a statement has at most 65,535 parameters
      for (let i = 0; i < hmacs.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('giftcard_stock')
          .select('card_number_hmac')
          .where('product_id', '=', productId)
          .where('card_number_hmac', 'in', hmacs.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) found.add(r.card_number_hmac);
      }
      return found;
    },

    async insertCodes(trx: Kysely<Database>, codes: Insertable<GiftcardStockTable>[]): Promise<void> {
      for (let i = 0; i < codes.length; i += CHUNK) {
        await trx
          .insertInto('giftcard_stock')
          .values(codes.slice(i, i + CHUNK))
          .execute();
      }
    },

    /**
     * How many unsold, unexpired codes of one face value there are, up to `atMost`; in `trx`, those
     * another transaction drew and has not committed count as unsold.
     */
    async available(
      productId: number,
      faceValue: string,
      now: Date,
      atMost: number,
      trx: Kysely<Database> = db,
    ): Promise<number> {
      const rows = await trx
        .selectFrom('giftcard_stock')
        .select('id')
        .where('product_id', '=', productId)
        .where('face_value', '=', faceValue)
        .where('transaction_id', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .limit(atMost)
        .execute();
      return rows.length;
    },

    /**
     * Sells up to `quantity` codes to a transaction, oldest first, in ONE statement: the subquery
     * locks the codes it picks and skips those another transaction holds (FOR UPDATE SKIP LOCKED), and
     * the update marks them sold, so two orders (two processes, or two orders of one batch sharing a
     * connection) can never take one code. Returns the codes taken, possibly fewer than asked.
     */
    async draw(
      trx: Kysely<Database>,
      o: { transactionId: number; productId: number; faceValue: string; quantity: number; now: Date },
    ): Promise<SealedCode[]> {
      const result = await sql<SealedCode & { id: string }>`
        UPDATE giftcard_stock SET transaction_id = ${o.transactionId}, sold_at = ${o.now}
        WHERE transaction_id IS NULL AND id IN (
          SELECT id FROM giftcard_stock
          WHERE product_id = ${o.productId} AND face_value = ${o.faceValue}::numeric
            AND transaction_id IS NULL AND (expires_at IS NULL OR expires_at > ${o.now})
          ORDER BY id
          LIMIT ${o.quantity}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, card_number, pin_code`.execute(trx);
      return [...result.rows].sort((a, b) => Number(a.id) - Number(b.id));
    },

    /**
     * The draws of a batch's live orders (modules/group-commit/) in ONE statement: for each product
     * and face value, the oldest unsold codes the orders need together, locked as `draw` locks them
     * (FOR UPDATE SKIP LOCKED) and handed out in the orders' order (the first order the oldest codes,
     * as one draw after the other would), each order's stock order recorded filled. Returns each
     * order's codes, in the orders' order, in the order they were drawn. When any order got fewer
     * than it asked, the statement has recorded what it should not (a stock order filled, or a
     * pre-order's part): the caller fails the batch, whose orders then draw alone (`draw`).
     */
    async drawOrders(trx: Kysely<Database>, orders: StockDraw[]): Promise<SealedCode[][]> {
      const now = orders[0].now;
      const wanted = orders.map((o, i) => ({
        i,
        transaction_id: o.transactionId,
        product_id: o.productId,
        face_value: o.faceValue,
        quantity: o.quantity,
        created_at: o.createdAt,
      }));
      const { rows } = await executePrepared(
        trx,
        sql<SealedCode & { id: string; transaction_id: string }>`
        WITH wanted AS (
          SELECT w.*, sum(w.quantity) OVER (PARTITION BY w.product_id, w.face_value ORDER BY w.i) - w.quantity AS after
          FROM json_to_recordset(${JSON.stringify(wanted)}::json)
            AS w(i int, transaction_id bigint, product_id int, face_value numeric, quantity int, created_at timestamptz)
        ), needed AS (
          SELECT product_id, face_value, sum(quantity) AS codes FROM wanted GROUP BY product_id, face_value
        ), picked AS (
          SELECT c.id, n.product_id, n.face_value,
                 row_number() OVER (PARTITION BY n.product_id, n.face_value ORDER BY c.id) AS place
          FROM needed n CROSS JOIN LATERAL (
            SELECT id FROM giftcard_stock
            WHERE product_id = n.product_id AND face_value = n.face_value
              AND transaction_id IS NULL AND (expires_at IS NULL OR expires_at > ${now})
            ORDER BY id
            LIMIT n.codes
            FOR UPDATE SKIP LOCKED) c
        ), sold AS (
          UPDATE giftcard_stock s SET transaction_id = w.transaction_id, sold_at = ${now}
          FROM picked p JOIN wanted w
            ON w.product_id = p.product_id AND w.face_value = p.face_value
           AND p.place > w.after AND p.place <= w.after + w.quantity
          WHERE s.id = p.id AND s.transaction_id IS NULL
          RETURNING s.id, s.transaction_id, s.card_number, s.pin_code
        ), recorded AS (
          INSERT INTO giftcard_stock_orders (transaction_id, product_id, face_value, quantity, created_at, filled_at)
          SELECT transaction_id, product_id, face_value, quantity, created_at, ${now} FROM wanted
        )
        SELECT id, transaction_id, card_number, pin_code FROM sold`,
      );
      const byOrder = new Map<number, Array<SealedCode & { id: string }>>();
      for (const r of rows) {
        const id = Number(r.transaction_id);
        const codes = byOrder.get(id) ?? [];
        codes.push(r);
        byOrder.set(id, codes);
      }
      return orders.map((o) =>
        (byOrder.get(o.transactionId) ?? [])
          .sort((a, b) => Number(a.id) - Number(b.id))
          .map(({ card_number, pin_code }) => ({ card_number, pin_code })),
      );
    },

    /** Gives back the codes a transaction took (a pre-order that could not be filled whole). */
    async release(trx: Kysely<Database>, transactionId: number): Promise<void> {
      await trx
        .updateTable('giftcard_stock')
        .set({ transaction_id: null, sold_at: null })
        .where('transaction_id', '=', transactionId)
        .execute();
    },

    /** The sealed codes sold to a transaction, in the order they were drawn. */
    async codesOf(trx: Kysely<Database>, transactionId: number): Promise<SealedCode[]> {
      return trx
        .selectFrom('giftcard_stock')
        .select(['card_number', 'pin_code'])
        .where('transaction_id', '=', transactionId)
        .orderBy('id')
        .execute();
    },

    async insertOrder(
      trx: Kysely<Database>,
      o: {
        transaction_id: number;
        product_id: number;
        face_value: string;
        quantity: number;
        created_at: Date;
        filled_at: Date | null;
      },
    ): Promise<void> {
      await trx.insertInto('giftcard_stock_orders').values(o).execute();
    },

    async ownsOrder(trx: Kysely<Database>, transactionId: number): Promise<boolean> {
      const row = await trx
        .selectFrom('giftcard_stock_orders')
        .select('transaction_id')
        .where('transaction_id', '=', transactionId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async markFilled(trx: Kysely<Database>, transactionId: number, now: Date): Promise<void> {
      await trx
        .updateTable('giftcard_stock_orders')
        .set({ filled_at: now })
        .where('transaction_id', '=', transactionId)
        .execute();
    },

    /**
     * Brings the waiting pre-orders of a product forward to the worker's next run, oldest first (their
     * `next_check_at` becomes their creation time): codes have arrived.
     */
    async wakePreOrders(trx: Kysely<Database>, productId: number): Promise<number> {
      const result = await sql`
        UPDATE giftcard_transactions t SET next_check_at = t.created_at
        FROM giftcard_stock_orders o
        WHERE o.transaction_id = t.id AND o.product_id = ${productId} AND o.filled_at IS NULL
          AND t.status = 'PENDING'`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    },

    /** Codes per product and face value: available (unsold, unexpired), sold, expired unsold. */
    async counts(now: Date, productId?: number): Promise<StockCount[]> {
      const filter = productId === undefined ? sql`` : sql`WHERE product_id = ${productId}`;
      const result = await sql<{
        product_id: number;
        face_value: string;
        available: string;
        sold: string;
        expired: string;
      }>`
        SELECT product_id, face_value,
          count(*) FILTER (WHERE transaction_id IS NULL AND (expires_at IS NULL OR expires_at > ${now})) AS available,
          count(*) FILTER (WHERE transaction_id IS NOT NULL) AS sold,
          count(*) FILTER (WHERE transaction_id IS NULL AND expires_at <= ${now}) AS expired
        FROM giftcard_stock ${filter}
        GROUP BY product_id, face_value
        ORDER BY product_id, face_value`.execute(db);
      return result.rows.map((r) => ({
        productId: Number(r.product_id),
        faceValue: r.face_value,
        available: Number(r.available),
        sold: Number(r.sold),
        expired: Number(r.expired),
      }));
    },

    /** Pre-orders waiting for codes, per product and face value (cards, not orders). */
    async waiting(productId?: number): Promise<Map<string, number>> {
      let query = db
        .selectFrom('giftcard_stock_orders')
        .select(['product_id', 'face_value', sql<string>`sum(quantity)`.as('cards')])
        .where('filled_at', 'is', null)
        .groupBy(['product_id', 'face_value']);
      if (productId !== undefined) query = query.where('product_id', '=', productId);
      const rows = await query.execute();
      return new Map(rows.map((r) => [`${r.product_id}/${r.face_value}`, Number(r.cards)]));
    },
  };
}

export type StockRepository = ReturnType<typeof stockRepository>;

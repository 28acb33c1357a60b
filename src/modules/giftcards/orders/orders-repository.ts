import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { accountTransaction } from '../../../db/account-transaction.ts';
import { quotedColumns } from '../../../db/column-lists.ts';
import { executePrepared } from '../../../db/prepared.ts';
import type {
  Database,
  Environment,
  GiftcardCardsTable,
  GiftcardStatus,
  GiftcardTransactionsTable,
} from '../../../db/schema.ts';
import type { PostingResult, RowWriter } from '../../ledger/index.ts';

/**
 * The SQL of gift card transactions and their cards. Every read is scoped to the caller's account
 * and environment, so another account's id is simply not found.
 */
export type TransactionRow = Selectable<GiftcardTransactionsTable>;
export type NewTransaction = Omit<
  TransactionRow,
  'updated_at' | 'next_check_at' | 'lease_until' | 'leased_by'
> & {
  next_check_at: Date | null;
};

export interface ReportQuery {
  customIdentifier?: string;
  status?: string;
  productId?: number;
  /** case-insensitive substring, as /products filters names */
  productName?: string;
  brandId?: number;
  brandName?: string;
  recipientEmail?: string;
  start?: Date;
  /** exclusive */
  endBefore?: Date;
  limit: number;
  offset: number;
}

/** A new order's id and customIdentifier check (`reserve`). */
export interface Reservation {
  accountId: number;
  environment: Environment;
  productId: number;
  customIdentifier: string | null;
}

/** A LIKE pattern matching `text` literally. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The ids of a batch's new orders (modules/group-commit/), in one statement, WITHOUT the customIdentifier
 * check: in a batch, the unique index is the check. A used customIdentifier fails the batch's INSERT
 * (23505), the batch rolls back, and its orders run alone (`reserve`), each getting its exact answer.
 * A look-up per order here would cost more than the rare rollback, and on a table without planner
 * statistics (PGlite never analyses; PostgreSQL's autovacuum may not have yet) a look-up joined to a
 * list of values may walk every transaction of the account through another of its indexes.
 */
async function reserveOrders(
  trx: Kysely<Database>,
  orders: Reservation[],
): Promise<Array<{ id: number; customIdentifierUsed: boolean }>> {
  const { rows } = await executePrepared(
    trx,
    sql<{ id: string | number }>`
    SELECT nextval('giftcard_transaction_ids') AS id FROM generate_series(1, ${orders.length}::int)`,
    // ids only: it may go out behind the batch's BEGIN before that answered (db/pipelined-begin.ts)
    { beforeBegin: true },
  );
  return rows
    .map((r) => Number(r.id))
    .sort((a, b) => a - b)
    .map((id) => ({ id, customIdentifierUsed: false }));
}

/**
 * Whether a reservation's customIdentifier is used (by this account and environment for this
 * product), as an SQL expression. A seek on the unique index: the first key at or after (account,
 * environment, product, customIdentifier) in the index's order, then whether it is that key. Only
 * that index gives this order, so the planner takes it whatever its statistics say; the same four
 * columns compared with "=" were served, on a table never analysed (PGlite; a new PostgreSQL
 * database), by another index of the account, reading every one of its orders (6.5 ms at 20k).
 */
function customIdentifierTaken(o: Reservation) {
  const key = sql`(${o.accountId}::bigint, ${o.environment}::text, ${o.productId}::int, ${o.customIdentifier}::text)`;
  return sql<boolean>`${o.customIdentifier}::text IS NOT NULL AND EXISTS (
    SELECT 1 FROM (
      SELECT account_id, environment, product_id, custom_identifier FROM giftcard_transactions
      WHERE custom_identifier IS NOT NULL
        AND (account_id, environment, product_id, custom_identifier) >= ${key}
      ORDER BY account_id, environment, product_id, custom_identifier
      LIMIT 1
    ) AS next_key
    WHERE (account_id, environment, product_id, custom_identifier) = ${key}
  )`;
}

/** A new order's row before its debit (which gives its balances), and its sealed cards. */
export interface NewOrderRows {
  row: Omit<NewTransaction, 'old_balance' | 'new_balance' | 'balance_updated_at'> & { updated_at: Date };
  cards: Array<{ card_number: string; pin_code: string }>;
}

/**
 * The row as `newOrderRows` stores it: the balances of its debit, the columns left to their defaults,
 * set on the order's own `item.row` (written already by its debit's statement), which it returns.
 * In place because copying this 31-column row and adding columns to the copy costs ~10 µs per order
 * in V8 (a literal spreading it among further properties, or a spread copy given more properties
 * afterwards: both measured), against ~0.5 µs for the same properties added to the row itself.
 */
export function storedOrderRow(item: NewOrderRows, debit: PostingResult): TransactionRow {
  const row = item.row as TransactionRow;
  row.old_balance = debit.oldBalance.toFixed();
  row.new_balance = debit.newBalance.toFixed();
  row.balance_updated_at = debit.at;
  row.lease_until = null;
  row.leased_by = null;
  return row;
}

/**
 * Gift card orders' row writer (`ledger.registerRowWriter`): new transactions with their sealed cards
 * (position 1..n), each with the balances its ledger entry left, written by their debit's own
 * statement: a batch's orders by the batch's, an order alone by its own (it has no `one`).
 *
 * Rows and cards go in as two JSON parameters read into the tables' row types
 * (`json_populate_recordset`), so the statement's text is the same for every batch (no VALUES list
 * of 33 parameters per order to compile here and parse there), and nothing comes back: the stored row
 * is the one given (its numeric text kept as written, its dates of whole milliseconds; the balances
 * as `trim_scale` leaves them, the text `Decimal.toFixed` gives), see `storedOrderRow`.
 */
export const ordersRowWriter: RowWriter<NewOrderRows> = {
  // no `one`: an order alone is written by its debit's statement too, with these CTEs of that one order
  many(items, at) {
    const rows = items.map((i) => i.row);
    const cards = items.flatMap(({ row, cards }) =>
      cards.map((c, i) => ({ transaction_id: row.id, position: i + 1, ...c })),
    );
    const columns = sql.raw(quotedColumns(Object.keys(rows[0])));
    const fromRows = sql.raw(quotedColumns(Object.keys(rows[0]), 'r.'));
    // `entry` (ledger/batch-debits.ts): one row per order debited, none when the batch was refused
    const writeCards =
      cards.length === 0
        ? sql``
        : sql`, written_cards AS (
            INSERT INTO giftcard_cards (transaction_id, position, card_number, pin_code)
            SELECT c.transaction_id, c.position, c.card_number, c.pin_code
            FROM json_populate_recordset(NULL::giftcard_cards, ${JSON.stringify(cards)}::json) AS c
            JOIN entry ON entry.transaction_id = c.transaction_id AND entry.product = 'giftcards'
          )`;
    return sql`, written_orders AS (
        INSERT INTO giftcard_transactions (${columns}, old_balance, new_balance, balance_updated_at)
        SELECT ${fromRows}, trim_scale(entry.balance_after - entry.amount), trim_scale(entry.balance_after),
               ${at}::timestamptz
        FROM json_populate_recordset(NULL::giftcard_transactions, ${JSON.stringify(rows)}::json) AS r
        JOIN entry ON entry.transaction_id = r.id AND entry.product = 'giftcards'
      )${writeCards}`;
  },
};

export function ordersRepository(db: Kysely<Database>) {
  /** The transactions of (account, environment) that a report's filters select. */
  function reported(accountId: number, environment: Environment, q: ReportQuery) {
    let query = db
      .selectFrom('giftcard_transactions')
      .where('account_id', '=', accountId)
      .where('environment', '=', environment);
    if (q.customIdentifier !== undefined) query = query.where('custom_identifier', '=', q.customIdentifier);
    if (q.status !== undefined)
      query = query.where('status', '=', q.status.toUpperCase() as TransactionRow['status']);
    if (q.productId !== undefined) query = query.where('product_id', '=', q.productId);
    if (q.productName !== undefined)
      query = query.where('product_name', 'ilike', `%${likeText(q.productName)}%`);
    if (q.brandId !== undefined) query = query.where('brand_id', '=', q.brandId);
    if (q.brandName !== undefined) query = query.where('brand_name', 'ilike', `%${likeText(q.brandName)}%`);
    if (q.recipientEmail !== undefined) query = query.where('recipient_email', '=', q.recipientEmail);
    if (q.start) query = query.where('created_at', '>=', q.start);
    if (q.endBefore) query = query.where('created_at', '<', q.endBefore);
    return query;
  }

  return {
    /**
     * The id of a new order and whether its customIdentifier is already used (by this account and
     * environment for this product), in one round trip. The id is taken either way (a sequence has gaps).
     */
    async reserve(
      trx: Kysely<Database>,
      o: Reservation,
    ): Promise<{ id: number; customIdentifierUsed: boolean }> {
      const { rows } = await executePrepared(
        trx,
        sql<{ id: string | number; used: boolean }>`
        SELECT nextval('giftcard_transaction_ids') AS id, ${customIdentifierTaken(o)} AS used`,
        // an id and a read: it may go out behind the order's BEGIN before that answered (db/pipelined-begin.ts)
        { beforeBegin: true },
      );
      return { id: Number(rows[0].id), customIdentifierUsed: rows[0].used };
    },

    /** Whether the order's customIdentifier is used now (a new statement: what committed meanwhile). */
    async customIdentifierUsed(trx: Kysely<Database>, o: Reservation): Promise<boolean> {
      const { rows } = await sql<{ used: boolean }>`SELECT ${customIdentifierTaken(o)} AS used`.execute(trx);
      return rows[0].used;
    },

    /** The ids of several orders in one statement (a batch's); their customIdentifiers are left to the unique index. */
    reserveMany: reserveOrders,

    /** Stores the sealed codes of a transaction (in the caller's transaction). */
    async insertCards(trx: Kysely<Database>, cards: Insertable<GiftcardCardsTable>[]): Promise<void> {
      if (cards.length > 0) await trx.insertInto('giftcard_cards').values(cards).execute();
    },

    /** Moves a transaction on from `from` (a no-op when it is no longer in `from`). */
    async changeStatus(
      trx: Kysely<Database>,
      id: number,
      from: GiftcardStatus,
      set: { status: GiftcardStatus; updated_at: Date; next_check_at: Date | null },
    ): Promise<void> {
      await trx
        .updateTable('giftcard_transactions')
        .set(set)
        .where('id', '=', id)
        .where('status', '=', from)
        .execute();
    },

    /** After a refund: the transaction's `balanceInfo` shows the balance the refund left. */
    async setBalanceAfterRefund(
      trx: Kysely<Database>,
      id: number,
      newBalance: string,
      at: Date,
    ): Promise<void> {
      await trx
        .updateTable('giftcard_transactions')
        .set({ new_balance: newBalance, balance_updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async find(accountId: number, environment: Environment, id: number): Promise<TransactionRow | undefined> {
      return accountTransaction(
        db.selectFrom('giftcard_transactions').selectAll(),
        accountId,
        environment,
        id,
      );
    },

    /** A transaction by id, whoever's it is (fulfilment, after a step). */
    async get(id: number): Promise<TransactionRow> {
      return db
        .selectFrom('giftcard_transactions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    },

    /** The row, locked for the caller's transaction (fulfilment steps). */
    async lock(trx: Kysely<Database>, id: number): Promise<TransactionRow | undefined> {
      return trx
        .selectFrom('giftcard_transactions')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async report(accountId: number, environment: Environment, q: ReportQuery): Promise<TransactionRow[]> {
      return reported(accountId, environment, q)
        .selectAll()
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset(q.offset)
        .execute();
    },

    /** How many transactions `report` finds in all pages (the paged wrapper's total). */
    async reportCount(accountId: number, environment: Environment, q: ReportQuery): Promise<number> {
      const row = await reported(accountId, environment, q)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Orders whose `next_check_at` has come, oldest first (only orders not final have one). */
    async dueIds(now: Date, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('giftcard_transactions')
        .select('id')
        .where('next_check_at', '<=', now)
        .orderBy('next_check_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** The locked row's next look moved to `until`: claimed by a step that calls out. */
    async claim(trx: Kysely<Database>, id: number, until: Date): Promise<void> {
      await trx
        .updateTable('giftcard_transactions')
        .set({ next_check_at: until })
        .where('id', '=', id)
        .execute();
    },

    /** Moves the next look at a non-final order to `at` (after a failed step). */
    async postpone(id: number, at: Date): Promise<void> {
      await db
        .updateTable('giftcard_transactions')
        .set({ next_check_at: at })
        .where('id', '=', id)
        .where('next_check_at', 'is not', null)
        .execute();
    },

    async cards(transactionId: number) {
      return db
        .selectFrom('giftcard_cards')
        .select(['card_number', 'pin_code'])
        .where('transaction_id', '=', transactionId)
        .orderBy('position')
        .execute();
    },
  };
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;

import { type Insertable, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { accountTransaction } from '../../../db/account-transaction.ts';
import { quotedColumns } from '../../../db/column-lists.ts';
import { executePrepared } from '../../../db/prepared.ts';
import type { Database, Environment, TopupStatus, TopupTransactionsTable } from '../../../db/schema.ts';
import type { PostingResult } from '../../ledger/index.ts';
import type { PinDetail } from '../fulfilment/provider.ts';
import { pinVoucherCodec, type VoucherSealer } from './pin-voucher-codec.ts';

/**
 * SQL for top-up transactions. Only this file reads or writes `topup_transactions`. Its callers see
 * the PIN voucher (`pin_detail`) opened and give it as is; at rest it is sealed (pin-voucher-codec.ts).
 * A row as stored is another type than `TopupRow`, so a read that would hand one out unopened does
 * not compile.
 */
type StoredTopupRow = Selectable<TopupTransactionsTable>;
export type TopupRow = Omit<StoredTopupRow, 'pin_detail'> & { pin_detail: PinDetail | null };
export type NewTopup = Omit<Insertable<TopupTransactionsTable>, 'pin_detail'> & {
  pin_detail?: PinDetail | null;
};

/** A new top-up before its debit: the row but for the balances its debit gives (`withBalances`). */
export type UnpostedTopup = Omit<NewTopup, 'old_balance' | 'new_balance' | 'balance_updated_at'>;

/** What a step may change on a top-up. */
export type TopupChange = Partial<{
  status: TopupStatus;
  operator_transaction_id: string | null;
  pin_detail: PinDetail | null;
  failure_reason: string | null;
  next_check_at: Date | null;
  updated_at: Date;
}>;

export interface ReportFilter {
  countryCode?: string;
  customIdentifier?: string;
  operatorId?: number;
  operatorName?: string;
  /** The dashboard's status filter (the spec's report has none). */
  status?: string;
  from?: Date;
  to?: Date;
  sortBy: 'transactionDate' | 'transactionId' | 'requestedAmount';
  sortOrder: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  transactionDate: 'created_at',
  transactionId: 'id',
  requestedAmount: 'requested_amount',
} as const;

/** Unique violation on the customIdentifier index (PostgreSQL and PGlite both report 23505). */
/** What a top-up's conflict check asks: its customIdentifier and recipient, and maybe a new id. */
export interface ConflictCheck {
  accountId: number;
  environment: Environment;
  customIdentifier: string | null;
  recipient: string | null;
  since: Date;
  nextId?: boolean;
}

/**
 * What a top-up's row writer writes with its debit (the adapter's `rowWriter`): the row, whose
 * balances come from the debit; its voucher sealed beforehand (a batch's statement is built
 * without awaiting anything); and since when an earlier top-up to its number refuses it.
 */
export interface NewTopupRows {
  row: UnpostedTopup;
  /** `pin_detail` as the column holds it (`sealPin`), or null. */
  pinColumn: string | null;
  since: Date;
}

/** A row to write once the checks after the balance lock pass (`insertChecked`). */
export interface CheckedInsert {
  row: UnpostedTopup;
  since: Date;
}

/** The row written, or none and the rule the top-up meets. */
export interface CheckedInsertResult {
  row: TopupRow | null;
  customIdentifierUsed: boolean;
  recentlyRecharged: boolean;
}

/** Its answer: the new id (when asked) and which rule the top-up meets. */
export interface Conflicts {
  id: number | null;
  customIdentifierUsed: boolean;
  recentlyRecharged: boolean;
}

/**
 * Whether a top-up of (account, environment) has `customIdentifier`, as a seek on its unique index:
 * the first key at or after this one in that index's order, then whether it is this one. No other
 * index gives that order, so the planner takes it whatever its statistics say; the same columns
 * compared with "=" could be served, on a table never analysed (PGlite; a new PostgreSQL database),
 * by another index of the account, reading every one of its top-ups.
 */
type SqlValue = RawBuilder<unknown> | ReturnType<typeof sql.ref>;

function customIdentifierUsed(accountId: SqlValue, environment: SqlValue, customIdentifier: SqlValue) {
  const key = sql`(${accountId}, ${environment}, ${customIdentifier})`;
  return sql<boolean>`EXISTS (
    SELECT 1 FROM (
      SELECT t.account_id, t.environment, t.custom_identifier FROM topup_transactions t
      WHERE t.custom_identifier IS NOT NULL AND (t.account_id, t.environment, t.custom_identifier) >= ${key}
      ORDER BY t.account_id, t.environment, t.custom_identifier
      LIMIT 1
    ) AS next_key
    WHERE (next_key.account_id, next_key.environment, next_key.custom_identifier) = ${key}
  )`;
}

/**
 * Whether `recipient` got a top-up (not refunded) from (account, environment) since `since`, as a
 * seek on `topup_recently_recharged` (0007): the first entry at or after (account, environment,
 * recipient) in that index's order is the number's latest top-up, if it has one. Only that index
 * gives this order, so it serves the check whatever the planner's statistics say (with "=" and a
 * range, a look-up run once per row of a batch was planned on another index of the account).
 */
function recentlyRecharged(accountId: SqlValue, environment: SqlValue, recipient: SqlValue, since: SqlValue) {
  const key = sql`(${accountId}, ${environment}, ${recipient})`;
  return sql<boolean>`EXISTS (
    SELECT 1 FROM (
      SELECT t.account_id, t.environment, t.recipient_phone, t.created_at FROM topup_transactions t
      WHERE t.status <> 'REFUNDED' AND (t.account_id, t.environment, t.recipient_phone) >= ${key}
      ORDER BY t.account_id, t.environment, t.recipient_phone, t.created_at DESC
      LIMIT 1
    ) AS latest
    WHERE (latest.account_id, latest.environment, latest.recipient_phone) = ${key} AND latest.created_at > ${since}
  )`;
}

// The look-ups of a batch's statements, on the columns of their `i` rows: the same fragments for
// every batch, made once.
const RECENT_IN_INSERT = recentlyRecharged(
  sql.ref('i.account_id'),
  sql.ref('i.environment'),
  sql.ref('i.recipient_phone'),
  sql.ref('i.since'),
);
const USED_IN_INSERT = customIdentifierUsed(
  sql.ref('i.account_id'),
  sql.ref('i.environment'),
  sql.ref('i.custom_identifier'),
);
const RECENT_IN_CHECKS = recentlyRecharged(
  sql.ref('i.account_id'),
  sql.ref('i.environment'),
  sql.ref('i.recipient'),
  sql.ref('i.since'),
);

/**
 * A new top-up as stored, alone (`insertChecked`) or by a batch's debits (`rowsWithDebits`) (the columns
 * it does not give are null by default).
 * Built as a copy and assignments: an object literal spreading a row of this size among further
 * properties takes V8's slow path (6–10 µs per row, measured; ~1 µs this way).
 */
function asStored({ pin_detail, ...given }: NewTopup): TopupRow {
  const row = given as TopupRow;
  row.operator_transaction_id ??= null;
  row.failure_reason ??= null;
  row.next_check_at ??= null;
  row.lease_until ??= null;
  row.leased_by ??= null;
  // as read back through the codec: the voucher's JSON
  row.pin_detail = pin_detail == null ? null : (JSON.parse(JSON.stringify(pin_detail)) as PinDetail);
  return row;
}

/** The debit's balances, set on the new row (not spread into a copy: see asStored). */
function withBalances(row: UnpostedTopup, debit: PostingResult): NewTopup {
  return Object.assign(row, {
    old_balance: debit.oldBalance.toFixed(),
    new_balance: debit.newBalance.toFixed(),
    balance_updated_at: debit.at,
  });
}

/** A top-up as its row writer stored it with its debit: the row given, with the debit's balances. */
export function storedTopupRow(rows: NewTopupRows, debit: PostingResult): TopupRow {
  return asStored(withBalances(rows.row, debit));
}

/** The columns of a batch's rows that the debits' statement gives (`rowsWithDebits`). */
const FROM_THE_DEBIT = new Set(['old_balance', 'new_balance', 'balance_updated_at']);

export function isCustomIdentifierConflict(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === '23505' &&
    (e.constraint === 'topup_custom_identifier_unique' ||
      String(e.message).includes('topup_custom_identifier_unique'))
  );
}

export function topupsRepository(db: Kysely<Database>, vouchers: VoucherSealer) {
  const codec = pinVoucherCodec(vouchers);
  // Every write of the column and every row read pass through these (the codec's one place here).
  // (the rest of the row is a new object: its column is set on it, not spread into another; see asStored)
  const sealNew = async ({ pin_detail, ...row }: NewTopup): Promise<Insertable<TopupTransactionsTable>> => {
    const sealed = row as Insertable<TopupTransactionsTable>;
    if (pin_detail !== undefined) sealed.pin_detail = await codec.toColumn(pin_detail);
    return sealed;
  };
  const sealChange = async ({ pin_detail, ...change }: TopupChange) =>
    pin_detail === undefined ? change : { ...change, pin_detail: await codec.toColumn(pin_detail) };
  const openPin = async (row: StoredTopupRow): Promise<TopupRow> => ({
    ...row,
    pin_detail: await codec.fromColumn(row.pin_detail),
  });
  const openAll = (rows: StoredTopupRow[]) => Promise.all(rows.map(openPin));
  const openOne = async (row: StoredTopupRow | undefined) => (row ? openPin(row) : undefined);
  return {
    /** `pin_detail` as the column holds it (sealed): what `rowsWithDebits` is given. */
    sealPin: (voucher: PinDetail | null) => codec.toColumn(voucher),

    /**
     * Writes top-ups of orders posted alone (the row writer's `one`, after the debit) with the checks
     * that must hold once the account's balance row is locked, in the same statement: a row is
     * written only when its recipient (a phone number) got no top-up (not refunded) since `since`
     * and its customIdentifier is unused. Each answer is the stored
     * row (with the debit's balances), or none and which rule the top-up meets. Both look-ups are
     * seeks on their index (`recentlyRecharged`, `customIdentifierUsed`), whatever the planner's
     * statistics.
     */
    async insertChecked(
      trx: Kysely<Database>,
      items: CheckedInsert[],
      debit: PostingResult,
    ): Promise<CheckedInsertResult[]> {
      const posted = items.map((i) => withBalances(i.row, debit));
      const sealed = await Promise.all(posted.map(sealNew));
      const columns = [...new Set(sealed.flatMap((r) => Object.keys(r)))];
      // Each row as a JSON document read into the table's row type: every value keeps its column's type.
      // (`sealed` are new objects of sealNew's: the document's fields are set on them, see asStored)
      const docs = sealed.map((r, i) => {
        const doc = r as Record<string, unknown>;
        // the sealed voucher is JSON text; here it goes in as the JSON it is
        doc.pin_detail = typeof r.pin_detail === 'string' ? JSON.parse(r.pin_detail) : (r.pin_detail ?? null);
        doc._ord = i;
        doc._since = items[i].since;
        return doc;
      });
      const cols = sql.raw(quotedColumns(columns));
      const inputCols = sql.raw(quotedColumns(columns, 'c.'));
      const { rows } = await executePrepared(
        trx,
        sql<{ _ord: number; _used: boolean; _recent: boolean; _written: boolean }>`
        WITH input AS (
          SELECT (e.doc->>'_ord')::int AS ord, (e.doc->>'_since')::timestamptz AS since, r.*
          FROM json_array_elements(${JSON.stringify(docs)}::json) AS e (doc),
               LATERAL json_populate_record(NULL::topup_transactions, e.doc) AS r
        ), c AS (
          SELECT i.*,
                 i.custom_identifier IS NOT NULL AND ${USED_IN_INSERT} AS used,
                 i.recipient_phone IS NOT NULL
                   AND ${RECENT_IN_INSERT} AS recent
          FROM input i
        ), written AS (
          INSERT INTO topup_transactions (${cols})
          SELECT ${inputCols} FROM c WHERE NOT c.used AND NOT c.recent ORDER BY c.ord
          RETURNING id
        )
        SELECT c.ord AS _ord, c.used AS _used, c.recent AS _recent, w.id IS NOT NULL AS _written
        FROM c LEFT JOIN written w ON w.id = c.id
        ORDER BY c.ord`,
      );
      // Only whether each row was written comes back: the row stored is the one given (its numeric
      // text as written, its dates of whole milliseconds, its voucher as the codec gives it back),
      // with the columns the insert left to their defaults; no column to parse, no voucher to open.
      return rows.map(({ _ord, _used, _recent, _written }) =>
        _written
          ? { row: asStored(posted[_ord]), customIdentifierUsed: false, recentlyRecharged: false }
          : { row: null, customIdentifierUsed: _used, recentlyRecharged: _recent },
      );
    },

    /**
     * A batch's top-ups as CTEs of the debits' one statement (the row writer's `many`,
     * ledger/batch-debits.ts): each row with the balances of its entry, none for an order without
     * one (a refused batch writes nothing). Its number's recent recharge is looked for on the row
     * of the entry, so after the balance row's lock, by `topup_recipients_free` (migration 0034: the
     * batch's numbers in one call), which sees what committed while the statement waited and refuses
     * the batch when it finds one
     * (the top-ups then run alone: `insertChecked`). A batch's customIdentifiers are left to the
     * unique index (batch-mates' were checked apart before the lock).
     */
    rowsWithDebits(items: NewTopupRows[], at: Date): RawBuilder<unknown> {
      // The rows go in as they are (no copy per row), but for a PIN voucher, which goes in sealed:
      // without `pinColumn` a row holds no voucher (pin_detail null or absent).
      const docs = items.map(({ row, pinColumn }) =>
        pinColumn === null ? row : Object.assign({}, row, { pin_detail: JSON.parse(pinColumn) }),
      );
      // the batch's orders took `since` in one turn: the earliest is the strictest
      let since = items[0].since;
      for (const i of items) if (i.since < since) since = i.since;
      const columns = [...new Set(docs.flatMap((d) => Object.keys(d)))].filter((c) => !FROM_THE_DEBIT.has(c));
      const cols = sql.raw(quotedColumns(columns));
      const fromRows = sql.raw(quotedColumns(columns, 'r.'));
      // topup_rows is MATERIALIZED on the rows of `entry`, and the check takes its numbers in one
      // call: never before the debit has the lock, whatever the plan. A batch is one account's.
      const { account_id: account, environment } = items[0].row;
      return sql`, topup_rows AS MATERIALIZED (
          SELECT r.*, trim_scale(entry.balance_after - entry.amount) AS debited_old_balance,
                 trim_scale(entry.balance_after) AS debited_new_balance
          FROM json_populate_recordset(NULL::topup_transactions, ${JSON.stringify(docs)}::json) AS r
          JOIN entry ON entry.transaction_id = r.id AND entry.product = 'topups'
        ), recipients_free AS MATERIALIZED (
          SELECT topup_recipients_free(${account}::bigint, ${environment}::text, array_agg(r.recipient_phone),
                                       ${since}::timestamptz) AS free
          FROM topup_rows r
        ), written_topups AS (
          INSERT INTO topup_transactions (${cols}, old_balance, new_balance, balance_updated_at)
          SELECT ${fromRows}, r.debited_old_balance, r.debited_new_balance, ${at}::timestamptz
          FROM topup_rows r WHERE (SELECT free FROM recipients_free)
        )`;
    },

    /** Moves a top-up out of `from`; returns the row, or undefined when it was no longer in `from`. */
    async changeStatus(
      trx: Kysely<Database>,
      id: number,
      from: TopupStatus,
      set: TopupChange,
    ): Promise<TopupRow | undefined> {
      return openOne(
        await trx
          .updateTable('topup_transactions')
          .set(await sealChange(set))
          .where('id', '=', id)
          .where('status', '=', from)
          .returningAll()
          .executeTakeFirst(),
      );
    },

    /** One top-up, locked for its step (FOR UPDATE) in `trx`: a worker and a request never both step it. */
    async lock(trx: Kysely<Database>, id: number): Promise<TopupRow | undefined> {
      return openOne(
        await trx
          .selectFrom('topup_transactions')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst(),
      );
    },

    /** The locked row's next look moved to `until`: claimed by a step that calls out. */
    async claim(trx: Kysely<Database>, id: number, until: Date): Promise<void> {
      await trx
        .updateTable('topup_transactions')
        .set({ next_check_at: until })
        .where('id', '=', id)
        .execute();
    },

    /** One top-up by id, whoever's. */
    async get(id: number): Promise<TopupRow | undefined> {
      return openOne(
        await db.selectFrom('topup_transactions').selectAll().where('id', '=', id).executeTakeFirst(),
      );
    },

    async find(accountId: number, environment: Environment, id: number): Promise<TopupRow | undefined> {
      return openOne(
        await accountTransaction(db.selectFrom('topup_transactions').selectAll(), accountId, environment, id),
      );
    },

    /**
     * Whether `customIdentifier` is used by this account and environment, and whether `recipient` (a
     * phone number; null: never) got a top-up (not refunded) from it since `since`: both in one round
     * trip. With `nextId`, also takes the next transaction id (a sequence has gaps). The recipient's
     * query is the one migration 0007's `topup_recently_recharged` index serves (named `rechargedSince`
     * there, its earlier home).
     */
    async conflicts(trx: Kysely<Database>, o: ConflictCheck): Promise<Conflicts> {
      const { rows } = await executePrepared(
        trx,
        sql<{ id: string | null; used: boolean; recent: boolean }>`
        SELECT ${o.nextId ? sql`nextval(pg_get_serial_sequence('topup_transactions', 'id'))` : sql`NULL`} AS id,
               ${o.customIdentifier}::text IS NOT NULL AND ${customIdentifierUsed(sql`${o.accountId}::bigint`, sql`${o.environment}::text`, sql`${o.customIdentifier}::text`)} AS used,
               ${o.recipient}::text IS NOT NULL AND ${recentlyRecharged(sql`${o.accountId}::bigint`, sql`${o.environment}::text`, sql`${o.recipient}::text`, sql`${o.since}::timestamptz`)} AS recent`,
        // an id and reads: it may go out behind the order's BEGIN before that answered (db/pipelined-begin.ts)
        { beforeBegin: true },
      );
      const row = rows[0];
      return {
        id: row.id === null ? null : Number(row.id),
        customIdentifierUsed: row.used,
        recentlyRecharged: row.recent,
      };
    },

    /**
     * `conflicts` of several top-ups in one statement (a batch's), in the order given; `nextId` is the
     * first's (a gathering keeps calls with and without apart). The customIdentifiers are left to the
     * unique index: a used one fails the batch's INSERT (23505), the batch rolls back and its top-ups
     * run alone (`conflicts`), each getting its exact answer. Joined to a list of values, that look-up
     * could walk every top-up of the account on a table without planner statistics (PGlite never
     * analyses), and it would run twice per batch, once with the balance row locked.
     */
    async conflictsMany(trx: Kysely<Database>, items: ConflictCheck[]): Promise<Conflicts[]> {
      // One JSON parameter for the checks: the statement's text is the same for every batch.
      const input = JSON.stringify(
        items.map((o, i) => ({
          ord: i,
          account_id: o.accountId,
          environment: o.environment,
          recipient: o.recipient,
          since: o.since,
        })),
      );
      const { rows } = await executePrepared(
        trx,
        sql<{ id: string | null; recent: boolean }>`
        SELECT ${items[0].nextId ? sql`nextval(pg_get_serial_sequence('topup_transactions', 'id'))` : sql`NULL`} AS id,
               i.recipient IS NOT NULL
                 AND ${RECENT_IN_CHECKS} AS recent
        FROM json_to_recordset(${input}::json)
          AS i (ord int, account_id bigint, environment text, recipient text, since timestamptz)
        ORDER BY i.ord`,
        { beforeBegin: true },
      );
      return rows.map((r) => ({
        id: r.id === null ? null : Number(r.id),
        customIdentifierUsed: false,
        recentlyRecharged: r.recent,
      }));
    },

    async report(
      accountId: number,
      environment: Environment,
      f: ReportFilter,
      page: { limit: number; offset: number },
    ): Promise<{ rows: TopupRow[]; total: number }> {
      let q = db
        .selectFrom('topup_transactions')
        .where('account_id', '=', accountId)
        .where('environment', '=', environment);
      if (f.countryCode) q = q.where('country_code', '=', f.countryCode.toUpperCase());
      if (f.customIdentifier) q = q.where('custom_identifier', '=', f.customIdentifier);
      if (f.operatorId !== undefined) q = q.where('operator_id', '=', f.operatorId);
      if (f.operatorName) {
        // a case-insensitive substring, with no LIKE wildcards to escape
        q = q.where(sql<boolean>`strpos(lower(operator_name), ${f.operatorName.toLowerCase()}) > 0`);
      }
      if (f.status) q = q.where('status', '=', f.status.toUpperCase() as TopupRow['status']);
      if (f.from) q = q.where('created_at', '>=', f.from);
      if (f.to) q = q.where('created_at', '<=', f.to);
      const column = SORT_COLUMNS[f.sortBy];
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy(column, f.sortOrder)
          .orderBy('id', f.sortOrder)
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows: await openAll(rows), total: Number(count.n) };
    },

    /** PROCESSING top-ups whose check is due, oldest first. */
    async dueIds(now: Date, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('topup_transactions')
        .select('id')
        .where('status', '=', 'PROCESSING')
        .where('next_check_at', '<=', now)
        .orderBy('next_check_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type TopupsRepository = ReturnType<typeof topupsRepository>;

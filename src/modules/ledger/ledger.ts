import { type Kysely, type RawBuilder, sql } from 'kysely';
import { executePrepared } from '../../db/prepared.ts';
import type { Database, Environment } from '../../db/schema.ts';
import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { minorUnitsOf } from '../../lib/currencies.ts';
import { type Dec, dec, hasAtMostDecimals } from '../../lib/money.ts';
import {
  type BatchKey,
  createGathering,
  createGroupCommit,
  type GroupCommit,
  StatementRefused,
} from '../group-commit/index.ts';
import { type BalanceCache, type CachedBalance, createBalanceCache } from './balance-cache.ts';
import { BATCH_REFUSED, canShareDebit, inMinorUnits, postDebits } from './batch-debits.ts';
import { entriesOf } from './ledger-entries.ts';
import type {
  BalanceView,
  LedgerEntry,
  OrderDebit,
  Posting,
  PostingResult,
  RowWriter,
} from './ledger-types.ts';

/**
 * The ledger: the only code that changes a balance, and it writes an entry with every change.
 *
 * A posting is one conditional UPDATE of the balance row (`balance + amount >= 0`, so it can never
 * go negative and concurrent postings serialise on the row lock) followed by the INSERT of the entry
 * that records the amount and the balance it left. Callers pass the transaction they are in, so an
 * order's debit commits or rolls back together with the order itself.
 *
 * Invariants: balance == sum(entries) for every (account, environment); balance >= 0; entries are
 * never updated or deleted (a database trigger refuses it).
 */
/**
 * Why a posting moved no balance: the account has no balance there, or too little of it. The
 * message names the balance and what the posting needed, so the caller knows how far short it is.
 */
async function refusedPosting(
  trx: Kysely<Database>,
  o: { accountId: number; environment: Environment },
  needed: Dec,
): Promise<AppError> {
  const found = await trx
    .selectFrom('balances')
    .select(['balance', 'currency_code'])
    .where('account_id', '=', o.accountId)
    .where('environment', '=', o.environment)
    .executeTakeFirst();
  if (!found) return new AppError('ACCOUNT_NOT_FOUND');
  const currency = found.currency_code;
  return new AppError(
    'INSUFFICIENT_BALANCE',
    `The account balance (${dec(found.balance).toFixed()} ${currency}) is too low for this operation, which costs ${needed.abs().toFixed()} ${currency}.`,
  );
}

/** An order or top-up whose ledger entries do not match it (`orderMismatches`). */
export interface OrderMismatch {
  product: string;
  transactionId: number;
  accountId: number;
  environment: Environment;
  /** null for entries that name no existing transaction */
  status: string | null;
  problem: string;
}

export function createLedger(
  db: Kysely<Database>,
  clock: Clock,
  options: {
    /**
     * The group commit the orders' transactions run on (modules/group-commit/); without one, its
     * defaults (batches of up to 64 orders, one at a time per account).
     */
    groupCommit?: GroupCommit;
    /**
     * The balances kept in memory (balance-cache.ts); without one (a tool, a test of the ledger
     * alone) every read goes to the database.
     */
    cache?: BalanceCache;
  } = {},
) {
  const cache = options.cache ?? createBalanceCache({ healthy: () => false });
  const groupCommit = options.groupCommit ?? createGroupCommit(db);
  // the transactions of batches of two or more orders: their statements may be gathered
  const inBatch = groupCommit.inBatch;
  /** Opens the balance of an account in an environment at zero (idempotent). */
  async function open(
    trx: Kysely<Database>,
    accountId: number,
    environment: Environment,
    currencyCode: string,
  ) {
    await trx
      .insertInto('balances')
      .values({
        account_id: accountId,
        environment,
        currency_code: currencyCode,
        balance: '0',
        updated_at: clock.now(),
      })
      .onConflict((oc) => oc.columns(['account_id', 'environment']).doNothing())
      .execute();
  }

  /** Posts one entry inside `trx`. Throws INSUFFICIENT_BALANCE when it would take the balance below zero. */
  async function post(trx: Kysely<Database>, p: Posting): Promise<PostingResult> {
    const at = clock.now();
    // The caller's transaction may commit later: the kept balance waits for this version (balance-cache.ts).
    cache.writing(p);
    let updated: { balance: string; currency_code: string; version: number } | undefined;
    try {
      updated = await trx
        .updateTable('balances')
        .set({ balance: sql`balance + ${p.amount.toFixed()}::numeric`, updated_at: at })
        .where('account_id', '=', p.accountId)
        .where('environment', '=', p.environment)
        .where(sql<boolean>`balance + ${p.amount.toFixed()}::numeric >= 0`)
        .returning(['balance', 'currency_code', 'version'])
        .executeTakeFirst();
    } finally {
      cache.wrote(p, updated?.version ?? null);
    }
    if (!updated) {
      throw await refusedPosting(trx, p, p.amount);
    }
    if (!hasAtMostDecimals(p.amount, minorUnitsOf(updated.currency_code)) || p.amount.isZero()) {
      // A programming error, not a client's: amounts are rounded by the pricing code before posting.
      throw new Error(
        `ledger amount ${p.amount.toFixed()} is zero or not in ${updated.currency_code} minor units`,
      );
    }
    const newBalance = dec(updated.balance);
    const entry = await trx
      .insertInto('ledger_entries')
      .values({
        account_id: p.accountId,
        environment: p.environment,
        kind: p.kind,
        amount: p.amount.toFixed(),
        balance_after: newBalance.toFixed(),
        currency_code: updated.currency_code,
        reason: p.reason ?? null,
        product: p.product ?? null,
        transaction_id: p.transactionId ?? null,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      entryId: entry.id,
      oldBalance: newBalance.minus(p.amount),
      newBalance,
      currencyCode: updated.currency_code,
      at,
    };
  }

  /**
   * Registers a product's row writer and gives its debit, made inside the order's transaction: the
   * day's usage row (daily-order-usage: count and total of today's (UTC) order debits, both products)
   * is raised only within the account's daily limits, the balance only if it stays >= 0, and the entry
   * is written from the balance that update left; then the order's own `rows`. Alone, that is one
   * statement (`debitOne`) with the writer's CTEs of that order (its COMMIT behind it on PostgreSQL),
   * or, where a writer's `one` must answer its refusals (top-ups run again after that statement
   * refused them, refunded at once, or on PGlite), the debit and `one` after it; in a batch (the group commit's), the
   * debits of its orders and their rows are ONE statement (batch-debits.ts, the writer's CTEs after
   * the entries, each row taking its balances from its entry). The balance and usage rows stay locked
   * until the caller's transaction ends, so concurrent orders of one account serialise on them; any
   * refusal throws, and the caller's rollback undoes whatever part of the statement did happen.
   * Called once, when the product is built; each call makes a gathering of its own.
   * `last`: the order makes no statement after this one; when every order of a batch says so, the
   * batch's COMMIT goes out right behind the statement (group-commit's `runLast`).
   */
  function registerRowWriter<T>(
    writer: RowWriter<T>,
  ): (trx: Kysely<Database>, o: OrderDebit, rows: T, last: boolean) => Promise<PostingResult> {
    const gathering = createGathering<{ debit: OrderDebit; rows: T; last: boolean }, PostingResult>({
      gathers: inBatch,
      one: async (trx, { debit, rows, last }) => {
        // by the debit's statement (its COMMIT behind it when it may): a writer's `one` only where
        // its refusals must be answered (a transaction that runs the order again, or PGlite)
        const behind = last && groupCommit.commitsBehind(trx, 1);
        if (!writer.one || behind) return debitOne(trx, debit, (at) => writer.many([rows], at), behind);
        const posted = await debitOne(trx, debit);
        await writer.one(trx, rows, posted);
        return posted;
      },
      many: (trx, items) => {
        const at = clock.now();
        // the last statement of every order of the batch: its COMMIT may go right behind it
        const last = items.every((i) => i.last);
        return postDebits(
          trx,
          items.map((i) => i.debit),
          at,
          writer.many(
            items.map((i) => i.rows),
            at,
          ),
          last ? (t, query) => groupCommit.runLast(t, query, items.length) : undefined,
        );
      },
      canShare: (a, b) => canShareDebit(a.debit, b.debit),
    });
    return (trx, debit, rows, last) => gathering.run(trx, { debit, rows, last });
  }

  /**
   * The debit of one order on its own, in one statement (a batch's: batch-debits.ts); `alsoWrite`: a
   * row writer's CTEs (`RowWriter.many` of this order), which that statement then runs too. `behind`:
   * the order makes no statement after it and its COMMIT goes right behind it (group-commit's
   * `commitsBehind` and `runLast`, PostgreSQL). The statement then raises its refusal (`refuse_batch()`, migration 0029;
   * a row writer's CTEs raise theirs) instead of answering it, so that the COMMIT rolls back, the
   * day's usage row included: `StatementRefused`, and the group commit runs the order once more in a
   * transaction where this statement answers which limit or balance refused it.
   */
  async function debitOne(
    trx: Kysely<Database>,
    o: OrderDebit,
    alsoWrite?: (at: Date) => RawBuilder<unknown>,
    behind = false,
  ): Promise<PostingResult> {
    const at = clock.now();
    const day = at.toISOString().slice(0, 10);
    const amount = o.amount.toFixed();
    const countLimit = o.limits?.count ?? null;
    const amountLimit = o.limits?.amount?.toFixed() ?? null;
    // with the COMMIT behind it, a refusal raises: the transaction must not commit the day's usage
    const answer = behind
      ? sql`CASE WHEN EXISTS (SELECT 1 FROM usage) AND entry.id IS NOT NULL
                      AND ${inMinorUnits(sql`${amount}::numeric`, sql`debited.currency_code`)} THEN true
                 ELSE refuse_batch('the order''s debit did not fit (a daily limit or the balance)') END`
      : sql`EXISTS (SELECT 1 FROM usage)`;
    const query = sql<{
      usageOk: boolean;
      balance: string | null;
      currencyCode: string | null;
      entryId: number | null;
    }>`
      WITH usage AS (
        INSERT INTO daily_order_usage AS u (account_id, environment, day, order_count, order_amount)
        SELECT ${o.accountId}::bigint, ${o.environment}::text, ${day}::date, 1, ${amount}::numeric
        WHERE (${countLimit}::int IS NULL OR 1 <= ${countLimit}::int)
          AND (${amountLimit}::numeric IS NULL OR ${amount}::numeric <= ${amountLimit}::numeric)
        ON CONFLICT (account_id, environment, day) DO UPDATE
          SET order_count = u.order_count + 1, order_amount = u.order_amount + EXCLUDED.order_amount
          WHERE (${countLimit}::int IS NULL OR u.order_count + 1 <= ${countLimit}::int)
            AND (${amountLimit}::numeric IS NULL OR u.order_amount + EXCLUDED.order_amount <= ${amountLimit}::numeric)
        RETURNING 1
      ), debited AS (
        UPDATE balances SET balance = balance - ${amount}::numeric, updated_at = ${at}
        WHERE account_id = ${o.accountId} AND environment = ${o.environment}
          AND balance - ${amount}::numeric >= 0
          AND EXISTS (SELECT 1 FROM usage)
        RETURNING balance, currency_code
      ), entry AS (
        INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code,
                                    reason, product, transaction_id, created_at)
        SELECT ${o.accountId}, ${o.environment}, 'ORDER_DEBIT', -${amount}::numeric, debited.balance,
               debited.currency_code, ${o.reason ?? null}, ${o.product}, ${o.transactionId}, ${at}
        FROM debited
        -- beyond its id, what a row writer's CTEs read of the entry (RowWriter.many in ledger-types.ts)
        RETURNING id, transaction_id, product, amount, balance_after
      )${alsoWrite ? alsoWrite(at) : sql``}
      SELECT ${answer} AS "usageOk", debited.balance::text AS balance,
             debited.currency_code AS "currencyCode", entry.id AS "entryId"
      FROM (SELECT 1) AS one LEFT JOIN debited ON true LEFT JOIN entry ON true`;
    const run = behind ? groupCommit.runLast(trx, query, 1) : executePrepared(trx, query);
    const { rows } = await run.catch((error: unknown) => {
      // raised by this statement (its debit, or a row writer's check): nothing committed, run again
      const refused = behind && (error as { code?: string })?.code === BATCH_REFUSED;
      throw refused ? new StatementRefused(String(error)) : error;
    });
    const row = rows[0];
    if (!row?.usageOk) throw await limitReached(trx, o, day);
    if (row.balance === null || row.currencyCode === null || row.entryId === null) {
      throw await refusedPosting(trx, o, o.amount);
    }
    if (!hasAtMostDecimals(o.amount, minorUnitsOf(row.currencyCode)) || o.amount.lte(0)) {
      // A programming error, not a client's: amounts are rounded by the pricing code before posting.
      throw new Error(`order amount ${amount} is not positive or not in ${row.currencyCode} minor units`);
    }
    const newBalance = dec(row.balance);
    return {
      entryId: row.entryId,
      oldBalance: newBalance.plus(o.amount),
      newBalance,
      currencyCode: row.currencyCode,
      at,
    };
  }

  /** Which daily limit refused an order (the count is checked first). */
  async function limitReached(trx: Kysely<Database>, o: OrderDebit, day: string): Promise<AppError> {
    const usage = await trx
      .selectFrom('daily_order_usage')
      .select(['order_count', 'order_amount'])
      .where('account_id', '=', o.accountId)
      .where('environment', '=', o.environment)
      .where('day', '=', day)
      .executeTakeFirst();
    const count = usage?.order_count ?? 0;
    if (o.limits?.count != null && count + 1 > o.limits.count) {
      return new AppError('MAX_DAILY_TRANSACTION_COUNT_REACHED');
    }
    return new AppError('MAX_DAILY_TRANSACTION_AMOUNT_REACHED');
  }

  /** Gives an order's debit back (once: a unique index refuses a second refund of one order). */
  async function refundOrder(trx: Kysely<Database>, o: Omit<OrderDebit, 'limits'>): Promise<PostingResult> {
    return post(trx, { ...o, kind: 'REFUND', reason: o.reason ?? 'order refunded' });
  }

  /** Runs `post` in a transaction of its own (funding, adjustments). */
  async function postAlone(p: Posting): Promise<PostingResult> {
    return cache.around(p, () => db.transaction().execute((trx) => post(trx, p)));
  }

  /** The committed balance: from memory when this process may trust it (balance-cache.ts), else read. */
  async function balance(accountId: number, environment: Environment): Promise<BalanceView | undefined> {
    const key = { accountId, environment };
    const kept = cache.get(key);
    if (kept) return kept;
    const ticket = cache.ticket(key);
    const row = await db
      .selectFrom('balances')
      .select(['balance', 'currency_code', 'updated_at', 'version'])
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .executeTakeFirst();
    if (!row) return undefined;
    const view: CachedBalance = {
      balance: dec(row.balance),
      currencyCode: row.currency_code,
      updatedAt: row.updated_at,
      version: row.version,
    };
    cache.keep(key, view, ticket);
    return view;
  }

  async function entries(
    accountId: number,
    environment: Environment,
    page: { limit: number; offset: number },
  ): Promise<LedgerEntry[]> {
    return entriesOf(db, accountId, environment)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  /** The audit: for every balance, its amount against the sum of its entries. Empty when all agree. */
  async function discrepancies(): Promise<
    Array<{ accountId: number; environment: Environment; balance: string; sum: string }>
  > {
    const rows = await sql<{ accountId: number; environment: Environment; balance: string; sum: string }>`
      SELECT b.account_id AS "accountId", b.environment, b.balance::text AS balance,
             COALESCE(SUM(e.amount), 0)::text AS sum
      FROM balances b
      LEFT JOIN ledger_entries e ON e.account_id = b.account_id AND e.environment = b.environment
      GROUP BY b.account_id, b.environment, b.balance
      HAVING b.balance <> COALESCE(SUM(e.amount), 0)`.execute(db);
    return rows.rows;
  }

  /**
   * The audit's second half: every order and top-up against its ledger entries, both ways. Each
   * transaction has exactly one ORDER_DEBIT of its cost, in its account and environment; a REFUNDED
   * one has REFUNDs of its whole cost, a SUCCESSFUL gift card order none or its smsFee (given back
   * when the SMS to its recipient failed for good, issue 26), any other none; every ORDER_DEBIT or REFUND entry names a
   * transaction that exists there. (A lost or damaged row of either table shows here even where the
   * balances still agree with the entries.) At most `limit` findings, oldest transaction first.
   */
  async function orderMismatches(limit = 100): Promise<OrderMismatch[]> {
    const rows = await sql<OrderMismatch>`
      WITH orders AS (
        SELECT 'giftcards'::text AS product, id, account_id, environment, status::text AS status, amount AS cost,
               sms_fee
        FROM giftcard_transactions
        UNION ALL
        SELECT 'topups'::text, id, account_id, environment, status::text, cost, 0 FROM topup_transactions
      ), entries AS (
        SELECT product::text AS product, transaction_id, account_id, environment,
               COUNT(*) FILTER (WHERE kind = 'ORDER_DEBIT') AS debits,
               COALESCE(SUM(amount) FILTER (WHERE kind = 'ORDER_DEBIT'), 0) AS debited,
               COALESCE(SUM(amount) FILTER (WHERE kind = 'REFUND'), 0) AS refunded
        FROM ledger_entries
        WHERE transaction_id IS NOT NULL AND kind IN ('ORDER_DEBIT', 'REFUND')
        GROUP BY 1, 2, 3, 4
      )
      SELECT COALESCE(o.product, e.product) AS product,
             COALESCE(o.id, e.transaction_id) AS "transactionId",
             COALESCE(o.account_id, e.account_id) AS "accountId",
             COALESCE(o.environment, e.environment) AS environment,
             o.status,
             CASE
               WHEN o.id IS NULL THEN 'ledger entries for a transaction that does not exist'
               WHEN e.transaction_id IS NULL THEN 'no ledger entry'
               WHEN e.debits <> 1 THEN e.debits || ' order debits'
               WHEN -e.debited <> o.cost THEN 'debited ' || (-e.debited)::text || ', cost ' || o.cost::text
               WHEN o.status = 'REFUNDED' AND e.refunded <> o.cost
                 THEN 'REFUNDED with ' || e.refunded::text || ' refunded of ' || o.cost::text
               ELSE 'refunded ' || e.refunded::text || ' while ' || o.status
             END AS problem
      FROM orders o
      FULL JOIN entries e ON e.product = o.product AND e.transaction_id = o.id
                         AND e.account_id = o.account_id AND e.environment = o.environment
      WHERE o.id IS NULL OR e.transaction_id IS NULL OR e.debits <> 1 OR -e.debited <> o.cost
         OR (o.status = 'REFUNDED' AND e.refunded <> o.cost)
         OR (o.status <> 'REFUNDED' AND e.refunded <> 0
             AND NOT (o.status = 'SUCCESSFUL' AND o.sms_fee > 0 AND e.refunded = o.sms_fee))
      ORDER BY 2
      LIMIT ${limit}`.execute(db);
    return rows.rows;
  }

  /**
   * The transaction an order runs its debit (and its own rows) in: shared with the other orders of the
   * same account waiting at that moment (the group commit), each with its own result.
   */
  function orderTransaction<T>(key: BatchKey, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    // The kept balance is not used from before the order joins a batch until its transaction ended.
    return cache.around(key, () => groupCommit.run(key, work));
  }

  return {
    open,
    post,
    postAlone,
    registerRowWriter,
    orderTransaction,
    refundOrder,
    balance,
    /** The version of the balance this process trusts now without a read, or undefined. */
    keptBalanceVersion: (accountId: number, environment: Environment) =>
      cache.get({ accountId, environment })?.version,
    entries,
    discrepancies,
    orderMismatches,
    batchStats: groupCommit.stats,
    /** Orders of either product waiting for or running in their transaction now. */
    ordersInFlight: groupCommit.ordersInFlight,
    /** True on the transaction of a batch of orders (for `createGathering`). */
    inBatch,
    /** A batch's last statement, with its COMMIT behind it when it may (group-commit's `runLast`). */
    runLast: groupCommit.runLast,
  };
}

export type Ledger = ReturnType<typeof createLedger>;

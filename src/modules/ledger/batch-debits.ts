import { type Kysely, type QueryResult, type RawBuilder, sql } from 'kysely';
import { executePrepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import { currenciesNotInHundredths, minorUnitsOf } from '../../lib/currencies.ts';
import { dec, hasAtMostDecimals } from '../../lib/money.ts';
import { StatementRefused } from '../group-commit/index.ts';
import type { OrderDebit, PostingResult } from './ledger-types.ts';

/**
 * The debits of a batch of orders (modules/group-commit/) in ONE statement (a gathering of it): the
 * day's usage row raised by their count and total within the daily limits, the balance lowered by their total if it stays >= 0, and one entry
 * per order, in arrival order, each with the balance it left (the running total). It is all or
 * nothing: if the total does not fit (a limit, the balance) every order of the gathering is refused
 * with `BatchDebitRefused`, the batch rolls back and its orders run again alone (the group commit),
 * where each gets its own exact answer from its debit alone (ledger.ts `debitOne`). So the
 * balance == sum(entries) invariant and every order's result are those of the orders posted one by
 * one.
 */
export class BatchDebitRefused extends StatementRefused {
  constructor() {
    super('the batch of debits did not fit (a daily limit or the balance); its orders run alone');
  }
}

/**
 * Debits with one account and the same limits can be posted together (of one product: each product's
 * debits, written with its rows, have a gathering of their own, ledger.ts `registerRowWriter`).
 */
export const canShareDebit = (a: OrderDebit, b: OrderDebit) =>
  a.accountId === b.accountId && a.environment === b.environment && limitsKey(a) === limitsKey(b);

const NO_ROWS = sql``;

const limitsKey = (o: OrderDebit) => `${o.limits?.count ?? ''}/${o.limits?.amount?.toFixed() ?? ''}`;

/** How the statement is sent: prepared (the default), or with the batch's COMMIT behind it. */
export type RunStatement = <R>(trx: Kysely<Database>, query: RawBuilder<R>) => Promise<QueryResult<R>>;

/**
 * SQL that is true when `amount` is positive and in whole minor units of `currency` (a balance's
 * currency code). What the pricing code guarantees, checked inside the statement that debits it, so
 * that a statement with its COMMIT behind it refuses (and rolls back) an amount that breaks it
 * instead of committing it; the order then runs where the ledger's own check reports it.
 */
export function inMinorUnits(
  amount: RawBuilder<unknown>,
  currency: RawBuilder<unknown>,
): RawBuilder<boolean> {
  return sql<boolean>`(${amount} > 0 AND ${amount} = round(${amount}, ${MINOR_UNITS_OF(currency)}))`;
}

// One constant text for every statement (its plan is prepared once): CASE code WHEN 'JPY' THEN 0 ...
const CASES = sql.raw(
  currenciesNotInHundredths()
    .map(([code, decimals]) => `WHEN '${code}' THEN ${decimals}`)
    .join(' '),
);
const MINOR_UNITS_OF = (currency: RawBuilder<unknown>) => sql`CASE ${currency} ${CASES} ELSE 2 END`;

/** The SQLSTATE a batch's statement raises when the batch does not go through (migration 0029). */
export const BATCH_REFUSED = 'AG001';

/**
 * The one statement (see above); results in the orders' order. `alsoWrite`: the CTEs of a product's
 * row writer (`RowWriter.many`), which write the orders' own rows in the same statement. A refusal
 * is raised inside the statement (`refuse_batch()`, migration 0029), never answered: whatever is sent behind
 * it on the transaction (a pipelined COMMIT) then rolls back, the day's usage row included.
 */
export async function postDebits(
  trx: Kysely<Database>,
  orders: OrderDebit[],
  at: Date,
  alsoWrite: RawBuilder<unknown> = NO_ROWS,
  run: RunStatement = executePrepared,
): Promise<PostingResult[]> {
  const { accountId, environment } = orders[0];
  const day = at.toISOString().slice(0, 10);
  const countLimit = orders[0].limits?.count ?? null;
  const amountLimit = orders[0].limits?.amount?.toFixed() ?? null;
  // One JSON parameter for the orders: the statement's text is the same for every batch.
  const input = JSON.stringify(
    orders.map((o, i) => ({
      ord: i,
      amount: o.amount.toFixed(),
      transaction_id: o.transactionId,
      reason: o.reason ?? null,
      product: o.product,
    })),
  );
  const result = await run(
    trx,
    sql<{
      usageOk: boolean;
      ord: number | null;
      entryId: number | null;
      balanceAfter: string | null;
      currencyCode: string | null;
    }>`
    WITH input AS (
      SELECT * FROM json_to_recordset(${input}::json)
        AS i (ord int, amount numeric, transaction_id bigint, reason text, product text)
    ),
    total AS (SELECT count(*)::int AS n, sum(amount) AS amount FROM input),
    usage AS (
      INSERT INTO daily_order_usage AS u (account_id, environment, day, order_count, order_amount)
      SELECT ${accountId}::bigint, ${environment}::text, ${day}::date, total.n, total.amount FROM total
      WHERE (${countLimit}::int IS NULL OR total.n <= ${countLimit}::int)
        AND (${amountLimit}::numeric IS NULL OR total.amount <= ${amountLimit}::numeric)
      ON CONFLICT (account_id, environment, day) DO UPDATE
        SET order_count = u.order_count + EXCLUDED.order_count,
            order_amount = u.order_amount + EXCLUDED.order_amount
        WHERE (${countLimit}::int IS NULL OR u.order_count + EXCLUDED.order_count <= ${countLimit}::int)
          AND (${amountLimit}::numeric IS NULL OR u.order_amount + EXCLUDED.order_amount <= ${amountLimit}::numeric)
      RETURNING 1
    ), debited AS (
      UPDATE balances SET balance = balance - (SELECT amount FROM total), updated_at = ${at}
      WHERE account_id = ${accountId} AND environment = ${environment}
        AND balance - (SELECT amount FROM total) >= 0
        AND EXISTS (SELECT 1 FROM usage)
      RETURNING balance, currency_code
    ), entry AS (
      INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code,
                                  reason, product, transaction_id, created_at)
      SELECT ${accountId}, ${environment}, 'ORDER_DEBIT', -i.amount,
             debited.balance + (SELECT amount FROM total) - sum(i.amount) OVER (ORDER BY i.ord),
             debited.currency_code, i.reason, i.product, i.transaction_id, ${at}
      FROM input i CROSS JOIN debited
      ORDER BY i.ord
      RETURNING id, transaction_id, product, amount, balance_after, currency_code
    )${alsoWrite}
    SELECT CASE WHEN EXISTS (SELECT 1 FROM usage) AND (SELECT count(*) FROM entry) = (SELECT n FROM total)
                     AND (SELECT bool_and(${inMinorUnits(sql`i.amount`, sql`d.currency_code`)}) FROM input i CROSS JOIN debited d)
                THEN true ELSE refuse_batch('the batch of debits did not fit (a daily limit or the balance)') END AS "usageOk",
           input.ord, entry.id AS "entryId",
           entry.balance_after::text AS "balanceAfter", entry.currency_code AS "currencyCode"
    FROM (SELECT 1) AS one
    LEFT JOIN (entry JOIN input ON input.transaction_id = entry.transaction_id AND input.product = entry.product) ON true
    ORDER BY input.ord`,
  ).catch((error: unknown) => {
    throw (error as { code?: string })?.code === BATCH_REFUSED ? new BatchDebitRefused() : error;
  });
  const found = result.rows;
  if (found.length !== orders.length || found.some((r) => !r.usageOk || r.entryId === null)) {
    throw new BatchDebitRefused();
  }
  return found.map((r, i) => {
    const o = orders[i];
    const currencyCode = r.currencyCode as string;
    if (!hasAtMostDecimals(o.amount, minorUnitsOf(currencyCode)) || o.amount.lte(0)) {
      // A programming error, not a client's: amounts are rounded by the pricing code before posting.
      throw new Error(
        `order amount ${o.amount.toFixed()} is not positive or not in ${currencyCode} minor units`,
      );
    }
    const newBalance = dec(r.balanceAfter as string);
    return {
      entryId: r.entryId as number,
      oldBalance: newBalance.plus(o.amount),
      newBalance,
      currencyCode,
      at,
    };
  });
}

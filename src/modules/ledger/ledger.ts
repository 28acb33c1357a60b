import { type Kysely, sql } from 'kysely';
import type { Database, Environment, LedgerKind } from '../../db/schema.ts';
import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Dec, dec, roundToMinor } from '../../lib/money.ts';

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
export interface Posting {
  accountId: number;
  environment: Environment;
  kind: LedgerKind;
  /** Signed, in the account currency, already rounded to its minor unit. */
  amount: Dec;
  reason?: string | null;
  product?: 'giftcards' | 'topups' | null;
  transactionId?: number | null;
}

export interface OrderDebit {
  accountId: number;
  environment: Environment;
  /** Positive: what the order costs, rounded to the account currency's minor unit. */
  amount: Dec;
  product: 'giftcards' | 'topups';
  transactionId: number;
  reason?: string;
  /** The account's daily limits (null = none). */
  limits?: { count: number | null; amount: Dec | null };
}

export interface PostingResult {
  entryId: number;
  oldBalance: Dec;
  newBalance: Dec;
  currencyCode: string;
  at: Date;
}

export interface BalanceView {
  balance: Dec;
  currencyCode: string;
  updatedAt: Date;
}

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: string;
  balanceAfter: string;
  currencyCode: string;
  reason: string | null;
  product: string | null;
  transactionId: number | null;
  createdAt: Date;
}

export function createLedger(db: Kysely<Database>, clock: Clock) {
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
    const updated = await trx
      .updateTable('balances')
      .set({ balance: sql`balance + ${p.amount.toFixed()}::numeric`, updated_at: at })
      .where('account_id', '=', p.accountId)
      .where('environment', '=', p.environment)
      .where(sql<boolean>`balance + ${p.amount.toFixed()}::numeric >= 0`)
      .returning(['balance', 'currency_code'])
      .executeTakeFirst();
    if (!updated) {
      const exists = await trx
        .selectFrom('balances')
        .select('currency_code')
        .where('account_id', '=', p.accountId)
        .where('environment', '=', p.environment)
        .executeTakeFirst();
      if (!exists) throw new AppError('ACCOUNT_NOT_FOUND');
      throw new AppError('INSUFFICIENT_BALANCE');
    }
    if (!roundToMinor(p.amount, updated.currency_code).equals(p.amount) || p.amount.isZero()) {
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
   * Debits an accepted order inside the order's transaction. The balance row is locked first, so
   * the daily-limit check and the debit are atomic against concurrent orders of the same account
   * (both products count). Limits: the number and the total of today's (UTC) order debits.
   */
  async function debitOrder(trx: Kysely<Database>, o: OrderDebit): Promise<PostingResult> {
    const locked = await trx
      .selectFrom('balances')
      .select('balance')
      .where('account_id', '=', o.accountId)
      .where('environment', '=', o.environment)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) throw new AppError('ACCOUNT_NOT_FOUND');
    if (o.limits && (o.limits.count !== null || o.limits.amount !== null)) {
      const now = clock.now();
      const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const today = await trx
        .selectFrom('ledger_entries')
        .select((eb) => [
          eb.fn.countAll<string>().as('count'),
          eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('total'),
        ])
        .where('account_id', '=', o.accountId)
        .where('environment', '=', o.environment)
        .where('kind', '=', 'ORDER_DEBIT')
        .where('created_at', '>=', midnight)
        .executeTakeFirstOrThrow();
      if (o.limits.count !== null && Number(today.count) + 1 > o.limits.count) {
        throw new AppError('MAX_DAILY_TRANSACTION_COUNT_REACHED');
      }
      if (o.limits.amount !== null && dec(today.total).negated().plus(o.amount).gt(o.limits.amount)) {
        throw new AppError('MAX_DAILY_TRANSACTION_AMOUNT_REACHED');
      }
    }
    return post(trx, {
      accountId: o.accountId,
      environment: o.environment,
      kind: 'ORDER_DEBIT',
      amount: o.amount.negated(),
      product: o.product,
      transactionId: o.transactionId,
      reason: o.reason ?? null,
    });
  }

  /** Gives an order's debit back (once: a unique index refuses a second refund of one order). */
  async function refundOrder(
    trx: Kysely<Database>,
    o: {
      accountId: number;
      environment: Environment;
      amount: Dec;
      product: 'giftcards' | 'topups';
      transactionId: number;
      reason?: string;
    },
  ): Promise<PostingResult> {
    return post(trx, { ...o, kind: 'REFUND', reason: o.reason ?? 'order refunded' });
  }

  /** Runs `post` in a transaction of its own (funding, adjustments). */
  async function postAlone(p: Posting): Promise<PostingResult> {
    return db.transaction().execute((trx) => post(trx, p));
  }

  async function balance(accountId: number, environment: Environment): Promise<BalanceView | undefined> {
    const row = await db
      .selectFrom('balances')
      .select(['balance', 'currency_code', 'updated_at'])
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .executeTakeFirst();
    return row && { balance: dec(row.balance), currencyCode: row.currency_code, updatedAt: row.updated_at };
  }

  async function entries(
    accountId: number,
    environment: Environment,
    page: { limit: number; offset: number },
  ): Promise<LedgerEntry[]> {
    return db
      .selectFrom('ledger_entries')
      .select([
        'id',
        'kind',
        'amount',
        'balance_after as balanceAfter',
        'currency_code as currencyCode',
        'reason',
        'product',
        'transaction_id as transactionId',
        'created_at as createdAt',
      ])
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
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

  return { open, post, postAlone, debitOrder, refundOrder, balance, entries, discrepancies };
}

export type Ledger = ReturnType<typeof createLedger>;

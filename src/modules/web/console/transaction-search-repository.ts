import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, Environment } from '../../../db/schema.ts';

/**
 * The console's search of both products' transactions across accounts (support work): SQL only,
 * read-only. The two tables are one UNION ALL of the same columns, newest first; a filter is a
 * condition in each branch, so PostgreSQL can use each table's indexes and stop after the page.
 */
export type ProductFilter = 'all' | 'giftcards' | 'topups';

export interface SearchFilter {
  environment: Environment;
  product: ProductFilter;
  status?: string;
  accountId?: number;
  customIdentifier?: string;
  transactionId?: number;
  /** An e-mail address (lower case) or a phone number's E.164 digits without '+'. */
  recipient?: { email: string } | { digits: string };
  /** From this instant (inclusive) and before that one (exclusive). */
  from?: Date;
  before?: Date;
}

/** Where a keyset page starts: after the row of this (created_at text, id, product). */
export interface Cursor {
  at: string;
  id: string;
  product: string;
}

export interface SearchRow {
  product: 'giftcards' | 'topups';
  id: string;
  account_id: string;
  account_name: string;
  environment: Environment;
  status: string;
  cost: string;
  currency_code: string;
  description: string;
  custom_identifier: string | null;
  recipient_email: string | null;
  recipient_phone: string | null;
  created_at: Date;
  /** created_at as PostgreSQL's text, microseconds kept: the keyset cursor. */
  at: string;
}

type Product = 'giftcards' | 'topups';

/**
 * The conditions of one branch (one table), every one bound as a parameter. After a keyset cursor
 * the order is (created_at, id, product) descending; within one table the product is fixed, so the
 * condition is on (created_at, id) alone, which the table's indexes serve (0027).
 */
function conditions(product: Product, f: SearchFilter, after?: Cursor): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [sql`environment = ${f.environment}`];
  if (f.status !== undefined) where.push(sql`status = ${f.status}`);
  if (f.accountId !== undefined) where.push(sql`account_id = ${f.accountId}`);
  if (f.customIdentifier !== undefined) where.push(sql`custom_identifier = ${f.customIdentifier}`);
  if (f.transactionId !== undefined) where.push(sql`id = ${f.transactionId}`);
  if (f.from !== undefined) where.push(sql`created_at >= ${f.from}`);
  if (f.before !== undefined) where.push(sql`created_at < ${f.before}`);
  const r = f.recipient;
  if (r && 'email' in r) where.push(sql`lower(recipient_email) = ${r.email}`);
  // gift cards keep E.164 with its '+', top-ups its digits only (migrations 0003, 0004)
  if (r && 'digits' in r)
    where.push(sql`recipient_phone = ${product === 'giftcards' ? `+${r.digits}` : r.digits}`);
  if (after) {
    const at = sql`(${after.at}::timestamptz, ${after.id}::bigint)`;
    // the cursor's own (created_at, id) still follows it in a table whose name sorts lower
    where.push(product < after.product ? sql`(created_at, id) <= ${at}` : sql`(created_at, id) < ${at}`);
  }
  return where;
}

/**
 * One table's rows, newest first, at most `take`: each branch is ordered and limited by itself, so
 * PostgreSQL reads it from an index newest first and stops (0027); the two are then merged.
 */
function branch(product: Product, f: SearchFilter, take: number, after?: Cursor): RawBuilder<unknown> {
  const where = sql.join(conditions(product, f, after), sql` AND `);
  return product === 'giftcards'
    ? sql`(SELECT 'giftcards' AS product, id, account_id, environment, status, amount AS cost, currency_code,
          quantity || ' × ' || product_name AS description, custom_identifier, recipient_email,
          recipient_phone, created_at
        FROM giftcard_transactions WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT ${take})`
    : sql`(SELECT 'topups' AS product, id, account_id, environment, status, cost,
          requested_currency_code AS currency_code,
          trim_scale(requested_amount) || ' ' || requested_currency_code || ' to ' || operator_name AS description,
          custom_identifier, recipient_email, recipient_phone, created_at
        FROM topup_transactions WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT ${take})`;
}

export function transactionSearchRepository(db: Kysely<Database>) {
  /** Rows of the filter, newest first, after `cursor` or skipping `offset`, at most `limit`. */
  async function search(f: SearchFilter, page: { limit: number; offset?: number; after?: Cursor }) {
    const products = (f.product === 'all' ? (['giftcards', 'topups'] as const) : [f.product]).filter(
      // a top-up is never PENDING or FAILED (migration 0004): its table is not read for them
      (p) => !(p === 'topups' && (f.status === 'PENDING' || f.status === 'FAILED')),
    );
    if (products.length === 0) return [];
    const offset = page.offset ?? 0;
    const union = sql.join(
      products.map((p) => branch(p, f, offset + page.limit, page.after)),
      sql` UNION ALL `,
    );
    // the page first, then its accounts' names: the join never runs over more than the page
    const result = await sql<SearchRow>`
      SELECT t.*, t.created_at::text AS at, a.name AS account_name
        FROM (SELECT * FROM (${union}) u
               ORDER BY u.created_at DESC, u.id DESC, u.product DESC
               LIMIT ${page.limit} OFFSET ${offset}) t
        JOIN accounts a ON a.id = t.account_id
       ORDER BY t.created_at DESC, t.id DESC, t.product DESC`.execute(db);
    return result.rows;
  }

  /** Whether the environment has any transaction (of the account, when given). */
  async function any(environment: Environment, accountId?: number) {
    const account = accountId === undefined ? sql`` : sql`AND account_id = ${accountId}`;
    const result = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM giftcard_transactions WHERE environment = ${environment} ${account})
          OR EXISTS (SELECT 1 FROM topup_transactions WHERE environment = ${environment} ${account}) AS found`.execute(
      db,
    );
    return result.rows[0]?.found === true;
  }

  return { search, any };
}

export type TransactionSearchRepository = ReturnType<typeof transactionSearchRepository>;

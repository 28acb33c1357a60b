import { sql } from 'kysely';
import pg from 'pg';
import type { TestServer } from './server.ts';
import { ADMIN_PG_URL, withDatabase } from './templates.ts';
import { until } from './until.ts';

/** Where each product keeps its transactions, and how its next transaction id is drawn. */
const TRANSACTIONS = {
  giftcards: { table: 'giftcard_transactions', nextId: `nextval('giftcard_transaction_ids')` },
  topups: {
    table: 'topup_transactions',
    nextId: `nextval(pg_get_serial_sequence('topup_transactions', 'id'))`,
  },
} as const;

export interface Twin {
  product: keyof typeof TRANSACTIONS;
  accountId: number;
  /** what the twin debits, as SQL decimal text ('10.40') */
  price: string;
  /** the transaction whose row the twin's copies, with `columns` (custom_identifier among them) in place */
  copyOf: number;
  columns: Record<string, string>;
}

/**
 * The concurrency suites' twin (on PostgreSQL): another process's order with the same
 * customIdentifier, in flight. On its own connection, its transaction writes what a process writes
 * for an order (its transaction row, the balance, and its ORDER_DEBIT entry, so the ledger audit
 * holds) and so holds the account's balance row; `retry` is sent then, and the twin commits once a
 * statement waits for a lock. Returns the retry's answer.
 */
export async function retryAgainstTwin<T>(
  server: TestServer,
  twin: Twin,
  retry: () => Promise<T>,
): Promise<T> {
  const { table, nextId } = TRANSACTIONS[twin.product];
  const { rows: named } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(
    server.db.kysely,
  );
  const client = new pg.Client({ connectionString: withDatabase(ADMIN_PG_URL, named[0].name) });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows: ids } = await client.query(`SELECT ${nextId} AS id`);
    await client.query(
      `UPDATE balances SET balance = balance - $2 WHERE account_id = $1 AND environment = 'sandbox'`,
      [twin.accountId, twin.price],
    );
    await client.query(
      `INSERT INTO ledger_entries
         (account_id, environment, kind, amount, balance_after, currency_code, reason, product, transaction_id)
       VALUES ($1, 'sandbox', 'ORDER_DEBIT', -$2::numeric, 0, 'USD', 'the twin', $3, $4)`,
      [twin.accountId, twin.price, twin.product, ids[0].id],
    );
    await client.query(
      `INSERT INTO ${table}
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', $2::bigint) || $3::jsonb)).*
       FROM ${table} t WHERE id = $1`,
      [twin.copyOf, ids[0].id, JSON.stringify(twin.columns)],
    );
    const answer = retry();
    // its customIdentifier was free when it looked; now it waits for the balance row
    await until('the retry to wait for the balance row', async () => {
      const { rows } = await client.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows.length > 0;
    });
    await client.query('COMMIT');
    return await answer;
  } finally {
    await client.end();
  }
}

/**
 * Orders on an account with daily limits after 500k order entries today, against the same on an
 * account without limits (same history), on PostgreSQL. The history is written with SQL (not the
 * API), keeping balance == ledger sum.
 *
 *   npm run bench -- daily-limits [--smoke]        (or: tsx bench/daily-limits.ts)
 */
import pg from 'pg';
import {
  type BenchOptions,
  benchOptions,
  type Figure,
  isMain,
  outboxDrained,
  postgresAvailable,
  printFigures,
  startAirgift,
} from './lib.ts';
import { benchAccount, type OrderLoad, orderLoad } from './orders.ts';

/** Runs of equal length as one: total rate, worst p99, any drift. */
function combined(runs: OrderLoad[]): OrderLoad {
  return {
    load: {
      requests: runs.reduce((n, r) => n + r.load.requests, 0),
      rps: runs.reduce((n, r) => n + r.load.rps, 0) / runs.length,
      p50: Math.max(...runs.map((r) => r.load.p50)),
      p99: Math.max(...runs.map((r) => r.load.p99)),
      failures: runs.reduce((n, r) => n + r.load.failures, 0),
    },
    drift: runs.map((r) => r.drift).find((d) => d !== null) ?? null,
  };
}

/**
 * `entries` ORDER_DEBIT entries of 0.01 today for the account, the balance lowered by as much; and,
 * when the schema keeps a per-day usage row (migration 0005), that row too.
 */
export async function seedTodayEntries(databaseUrl: string, accountId: number, entries: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      `SELECT balance::text FROM balances WHERE account_id = $1 AND environment = 'sandbox' FOR UPDATE`,
      [accountId],
    );
    await client.query(
      `INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code,
                                   reason, product, transaction_id, created_at)
       SELECT $1::bigint, 'sandbox', 'ORDER_DEBIT', -0.01, $2::numeric - 0.01 * g, 'USD', 'bench history',
              'giftcards', 2000000000 + $1::bigint * 10000000 + g, now()
       FROM generate_series(1, $3::int) g`,
      [accountId, rows[0].balance, entries],
    );
    await client.query(
      `UPDATE balances SET balance = balance - 0.01 * $2::int WHERE account_id = $1 AND environment = 'sandbox'`,
      [accountId, entries],
    );
    const usage = await client.query(`SELECT to_regclass('daily_order_usage') IS NOT NULL AS present`);
    if (usage.rows[0].present) {
      await client.query(
        `INSERT INTO daily_order_usage (account_id, environment, day, order_count, order_amount)
         VALUES ($1, 'sandbox', (now() AT TIME ZONE 'UTC')::date, $2::int, 0.01 * $2::int)
         ON CONFLICT (account_id, environment, day) DO UPDATE
           SET order_count = daily_order_usage.order_count + EXCLUDED.order_count,
               order_amount = daily_order_usage.order_amount + EXCLUDED.order_amount`,
        [accountId, entries],
      );
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  if (!(await postgresAvailable())) {
    console.log('PostgreSQL not reachable: daily-limit orders skipped');
    return [];
  }
  const history = o.smoke ? 5_000 : 500_000;
  const seconds = o.smoke ? 4 : 16; // four turns of whole seconds (wrk takes no fractions)
  const server = await startAirgift({ database: 'postgres' });
  try {
    const limited = await benchAccount(server, {
      dailyCountLimit: 2_000_000_000,
      dailyAmountLimit: '900000000000',
    });
    const free = await benchAccount(server);
    for (const a of [limited, free])
      await seedTodayEntries(server.databaseUrl as string, a.accountId, history);
    await orderLoad(server, 'giftcards', { seconds: 1, clients: 64, account: free }); // warm-up
    // In turns, ABBA (without, with, with, without), a quarter of the time each: whichever runs later
    // meets a bigger ledger, the other one's dead rows and maybe a checkpoint, and the machine's load
    // moves meanwhile; in this order such drifts weigh on both sides alike.
    const rounds: Record<'without' | 'withLimits', OrderLoad[]> = { without: [], withLimits: [] };
    for (const side of ['without', 'withLimits', 'withLimits', 'without'] as const) {
      const account = side === 'without' ? free : limited;
      // the turn before's e-mails (rendered after it) stay out of this one (a smoke run waits 3 s at most)
      await outboxDrained(server, o.smoke ? 3 : 120);
      rounds[side].push(await orderLoad(server, 'giftcards', { seconds: seconds / 4, clients: 64, account }));
    }
    const without = combined(rounds.without);
    const withLimits = combined(rounds.withLimits);
    const ratio = withLimits.load.rps / without.load.rps;
    return [
      {
        figure: `gift card orders with daily limits after ${history.toLocaleString('en')} entries today (PostgreSQL)`,
        value: `${withLimits.load.rps.toFixed(0)} orders/s p99 ${withLimits.load.p99.toFixed(0)} ms${withLimits.drift ? ` DRIFT/ERRORS: ${withLimits.drift}` : ''}`,
        baseline: `without limits ${without.load.rps.toFixed(0)} orders/s p99 ${without.load.p99.toFixed(0)} ms`,
        ratio,
        goal: '≥ 0.9× (within 10%)',
        met: ratio >= 0.9 && !withLimits.drift && !without.drift,
      },
    ];
  } finally {
    await server.stop();
  }
}

if (isMain(import.meta.url)) printFigures('orders with daily limits', await run(benchOptions()));

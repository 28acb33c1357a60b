/**
 * Report queries (`GET /reports/transactions` with filters, one page) on an account with 10k gift
 * card transactions against the same account grown to 1M, on PostgreSQL. The transactions are
 * written with SQL (not the API), with no ANALYZE afterwards (as on a server with autovacuum off).
 *
 *   npm run bench -- reports [--smoke]        (or: tsx bench/reports.ts)
 */
import pg from 'pg';
import { Agent, request } from 'undici';
import {
  type BenchOptions,
  benchOptions,
  type Figure,
  isMain,
  postgresAvailable,
  printFigures,
  type RunningServer,
  startAirgift,
  tokenFor,
} from './lib.ts';
import { benchAccount } from './orders.ts';

/** Gift card transactions numbered [from, to) of the account, spread over the last 365 days. */
export async function seedTransactions(databaseUrl: string, accountId: number, from: number, to: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `WITH products AS (SELECT array_agg(id ORDER BY id) AS ids FROM (SELECT id FROM giftcard_products ORDER BY id LIMIT 40) p)
       INSERT INTO giftcard_transactions (id, account_id, environment, status, product_id, product_name, country_code,
         brand_id, brand_name, quantity, unit_price, total_price, recipient_currency_code, currency_code,
         sender_unit_price, amount, fee, discount, sms_fee, total_fee, old_balance, new_balance,
         balance_updated_at, custom_identifier, sender_name, recipient_email, created_at, updated_at)
       SELECT 3000000000 + g, $1, 'sandbox',
              (ARRAY['SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','SUCCESSFUL','REFUNDED','FAILED'])[1 + g % 10],
              products.ids[1 + g % 40], 'Bench product', 'US', 1 + g % 40, 'Bench brand', 1, 10, 10, 'USD', 'USD',
              10, 10, 0, 0, 0, 0, 1000, 990, ts, 'seed-' || g, 'Bench', 'r' || (g % 1000) || '@example.com', ts, ts
       FROM products, generate_series($2::bigint, $3::bigint - 1) g,
            LATERAL (SELECT now() - ((($3::bigint - g) % 525600) * interval '1 minute')) t(ts)`,
      [accountId, from, to],
    );
  } finally {
    await client.end();
  }
}

const QUERIES = [
  ['newest page', '/reports/transactions?size=50'],
  ['a later page', '/reports/transactions?size=50&page=20'],
  ['status', '/reports/transactions?status=REFUNDED&size=50'],
  ['productId', '/reports/transactions?productId=PRODUCT&size=50'],
  ['customIdentifier', '/reports/transactions?customIdentifier=seed-5000'],
  ['date range', '/reports/transactions?startDate=DAY 00:00:00&endDate=DAY 23:59:59&size=50'],
  ['recipientEmail', '/reports/transactions?recipientEmail=r7@example.com&size=50'],
] as const;

async function latencies(server: RunningServer, token: string, product: number, rounds: number) {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const day = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const out: Record<string, number> = {};
  try {
    for (const [name, template] of QUERIES) {
      const path = template.replace('PRODUCT', String(product)).replaceAll('DAY', day).replaceAll(' ', '%20');
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const t = performance.now();
        const res = await request(`${server.url}/giftcards-sandbox${path}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          dispatcher,
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text.slice(0, 200)}`);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      out[name] = times[Math.floor(times.length / 2)];
    }
  } finally {
    await dispatcher.close();
  }
  return out;
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  if (!(await postgresAvailable())) {
    console.log('PostgreSQL not reachable: report queries skipped');
    return [];
  }
  const small = o.smoke ? 1_000 : 10_000;
  const large = o.smoke ? 20_000 : 1_000_000;
  const rounds = o.smoke ? 3 : 20;
  const server = await startAirgift({ database: 'postgres' });
  try {
    const account = await benchAccount(server);
    const token = await tokenFor(server, '/giftcards-sandbox', account);
    const url = server.databaseUrl as string;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const product = (await client.query('SELECT id FROM giftcard_products ORDER BY id LIMIT 1 OFFSET 7'))
      .rows[0].id;
    await client.end();
    await seedTransactions(url, account.accountId, 0, small);
    const a = await latencies(server, token, product, rounds);
    await seedTransactions(url, account.accountId, small, large);
    const b = await latencies(server, token, product, rounds);
    return QUERIES.map(([name]) => {
      const ratio = b[name] / a[name];
      return {
        figure: `report ${name} at ${large.toLocaleString('en')} transactions (PostgreSQL, p50)`,
        value: `${b[name].toFixed(2)} ms`,
        baseline: `${a[name].toFixed(2)} ms at ${small.toLocaleString('en')}`,
        ratio,
        goal: '≤ 2×',
        met: ratio <= 2,
      };
    });
  } finally {
    await server.stop();
  }
}

if (isMain(import.meta.url)) printFigures('report queries', await run(benchOptions()));

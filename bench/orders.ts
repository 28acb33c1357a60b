/**
 * Orders on ONE account, 64 clients: gift card orders and top-ups per second with their p99, on
 * PostgreSQL against `pgbench -b simple-update -c 64` on the same server, and on the embedded
 * database. After each run the money is checked: balance == ledger sum (the audit) == funding minus
 * the sum of the costs the accepted orders answered, and every accepted order is in the reports.
 *
 *   npm run bench -- orders [--smoke]        (or: tsx bench/orders.ts)
 */
import { Decimal } from 'decimal.js';
import {
  admin,
  type BenchOptions,
  benchOptions,
  drive,
  type Figure,
  isMain,
  type LoadResult,
  pgbench,
  postgresAvailable,
  printFigures,
  type RunningServer,
  startAirgift,
  tokenFor,
} from './lib.ts';

const FUND = '1000000000';
let sequence = 0;
const runTag = Math.random().toString(36).slice(2, 8);

export interface OrderLoad {
  load: LoadResult;
  drift: string | null;
}

/** A funded sandbox account of its own (USD, US), with optional daily limits. */
export async function benchAccount(
  server: RunningServer,
  limits: { dailyCountLimit?: number; dailyAmountLimit?: string } = {},
) {
  return admin<{ accountId: number; clientId: string; clientSecret: string }>(server, 'POST', '/accounts', {
    name: `bench ${runTag}`,
    currency: 'USD',
    country: 'US',
    environment: 'sandbox',
    fund: FUND,
    ...limits,
  });
}

const giftcardOrder = () =>
  JSON.stringify({
    productId: 11,
    quantity: 1,
    unitPrice: 10,
    senderName: 'Bench',
    recipientEmail: 'bench@example.com',
    customIdentifier: `bench-${runTag}-${++sequence}`,
  });

const topupOrder = () => {
  const n = ++sequence;
  // MTN Nigeria numbers, a new one per top-up (a number recharged < 2 min ago is refused);
  // subscriber numbers ending in 99990-99999 are sandbox test values, never produced here.
  const subscriber = String(1_000_000 + (n % 8_000_000) * 1).padStart(7, '0');
  return JSON.stringify({
    operatorId: 1001,
    amount: 10,
    customIdentifier: `bench-${runTag}-${n}`,
    recipientPhone: { countryCode: 'NG', number: `0803${subscriber}` },
  });
};

/**
 * Runs `seconds` of orders of one kind by `clients` clients on a new account, then checks the money:
 * the audit has no discrepancy, the balance is the funding minus the sum of the costs answered, and
 * the reports hold exactly the accepted orders.
 */
export async function orderLoad(
  server: RunningServer,
  kind: 'giftcards' | 'topups',
  o: {
    seconds: number;
    clients: number;
    account?: { accountId: number; clientId: string; clientSecret: string };
  },
): Promise<OrderLoad> {
  const account = o.account ?? (await benchAccount(server));
  const base = kind === 'giftcards' ? '/giftcards-sandbox' : '/topups-sandbox';
  const token = await tokenFor(server, base, account);
  const headers = {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  const before = new Decimal(
    (await admin(server, 'GET', `/accounts/${account.accountId}`)).balances.sandbox.balance,
  );
  let spent = new Decimal(0);
  let accepted = 0;
  const errors = new Map<string, number>();
  const load = await drive(`${server.url}${base}${kind === 'giftcards' ? '/orders' : '/topups'}`, {
    ca: server.ca,
    total: 1e9,
    durationMs: o.seconds * 1000,
    concurrency: o.clients,
    method: 'POST',
    headers,
    body: kind === 'giftcards' ? giftcardOrder : topupOrder,
    onAnswer(status, text) {
      if (status === 200) {
        accepted++;
        spent = spent.plus(JSON.parse(text).balanceInfo.cost);
      } else {
        const code = `${status} ${/"errorCode":"(\w+)"/.exec(text)?.[1] ?? text.slice(0, 80)}`;
        errors.set(code, (errors.get(code) ?? 0) + 1);
      }
    },
  });
  const problems: string[] = [];
  if (errors.size) problems.push(`errors: ${[...errors].map(([c, n]) => `${c} ×${n}`).join(', ')}`);
  const audit = await admin(server, 'GET', '/ledger/audit');
  if (audit.discrepancies.length) problems.push(`audit: ${JSON.stringify(audit.discrepancies)}`);
  const after = new Decimal(
    (await admin(server, 'GET', `/accounts/${account.accountId}`)).balances.sandbox.balance,
  );
  if (!before.minus(spent).equals(after)) {
    problems.push(`balance ${after} != ${before} - answered costs ${spent}`);
  }
  // Every accepted order is in the reports (one page of 1000 is enough to count a short run's orders).
  const reported = await countReported(server, base, headers, kind);
  if (reported !== null && reported < accepted && accepted <= 1000) {
    problems.push(`reports hold ${reported} orders, ${accepted} were accepted`);
  }
  return { load, drift: problems.length ? problems.join('; ') : null };
}

async function countReported(
  server: RunningServer,
  base: string,
  headers: Record<string, string>,
  kind: 'giftcards' | 'topups',
): Promise<number | null> {
  const { request, Agent } = await import('undici');
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  try {
    const path =
      kind === 'giftcards' ? '/reports/transactions?size=1000' : '/topups/reports/transactions?size=1000';
    const res = await request(`${server.url}${base}${path}`, {
      headers: { authorization: headers.authorization, accept: 'application/json' },
      dispatcher,
    });
    const body = (await res.body.json()) as unknown[] | { content: unknown[] };
    return Array.isArray(body) ? body.length : body.content.length;
  } finally {
    await dispatcher.close();
  }
}

function orderFigure(
  name: string,
  r: OrderLoad,
  baselineTps: number | null,
  goal: string,
  met: boolean,
): Figure {
  return {
    figure: name,
    value: `${r.load.rps.toFixed(0)} orders/s p99 ${r.load.p99.toFixed(0)} ms, ${r.drift ? `DRIFT/ERRORS: ${r.drift}` : 'zero drift'}`,
    ...(baselineTps !== null && {
      baseline: `pgbench simple-update -c 64 ${baselineTps.toFixed(0)} tps`,
      ratio: r.load.rps / baselineTps,
    }),
    goal,
    met: met && r.drift === null,
  };
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  const seconds = o.smoke ? 2 : 10;
  const clients = 64;
  const figures: Figure[] = [];
  if (await postgresAvailable()) {
    const server = await startAirgift({ database: 'postgres' });
    try {
      // A smoke run measures the baseline once for both figures (CI keeps it short).
      let smokeBase: { tps: number } | null | undefined;
      for (const kind of ['giftcards', 'topups'] as const) {
        if (!o.smoke) await orderLoad(server, kind, { seconds: 1, clients }); // warm-up
        const r = await orderLoad(server, kind, { seconds, clients });
        // A busy server (too many clients) leaves the figure without its baseline, not the run broken.
        const base =
          smokeBase ??
          (await pgbench({ clients, seconds }).catch((error: Error) => {
            console.error(`pgbench baseline unavailable: ${error.message.split('\n').slice(-2).join(' ')}`);
            return null;
          }));
        if (o.smoke) smokeBase = base;
        figures.push(
          orderFigure(
            `${kind === 'giftcards' ? 'gift card orders' : 'top-ups'}, one account, 64 clients (PostgreSQL)`,
            r,
            base?.tps ?? null,
            '≥ 1.0× pgbench, p99 ≤ 100 ms, zero drift',
            base !== null && r.load.rps >= base.tps && r.load.p99 <= 100,
          ),
        );
      }
    } finally {
      await server.stop();
    }
  } else {
    console.log('PostgreSQL not reachable: orders on PostgreSQL skipped');
  }
  const server = await startAirgift({ database: 'pglite' });
  try {
    for (const kind of ['giftcards', 'topups'] as const) {
      if (!o.smoke) await orderLoad(server, kind, { seconds: 1, clients }); // warm-up
      const r = await orderLoad(server, kind, { seconds, clients });
      figures.push(
        orderFigure(
          `${kind === 'giftcards' ? 'gift card orders' : 'top-ups'}, one account, 64 clients (PGlite)`,
          r,
          null,
          '≥ 1,000 orders/s',
          r.load.rps >= 1000,
        ),
      );
    }
  } finally {
    await server.stop();
  }
  return figures;
}

if (isMain(import.meta.url)) printFigures('orders on one account', await run(benchOptions()));

/**
 * CPU per order of the server process and of its PostgreSQL backends (/proc utime+stime), with
 * orders/s, for gift card orders and top-ups on one account, 64 clients (bench/orders.ts's load;
 * BENCH_CLIENTS sets another number).
 *
 *   tsx bench/cpu-per-order.ts [postgres|pglite] [seconds] [rounds]
 *
 * With BENCH_SERVER_ROOT=<another checkout> (say the code before a change) the two are measured in
 * turns, A B B A A B ..., a new server each turn, and the medians of each are printed side by side:
 * on a shared 2-core machine one run moves by ±25% from the next, so a change is judged on turns
 * that alternate, never on one run of each. With BENCH_SERVER_ENV='NAME=value ...' instead, the
 * "before" side is this checkout with those settings (say REQUEST_LOG_DAYS=0: what the request log
 * costs an order).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { batchFigures, isMain, outboxDrained, PG_URL, ROOT, setServerRoot, startAirgift } from './lib.ts';
import { benchAccount, orderLoad } from './orders.ts';

const TICK_MS = 10;
const ALL_KINDS = ['giftcards', 'topups'] as const;
/** BENCH_KINDS=topups (or giftcards) measures one product only: half the time per turn. */
const KINDS = ALL_KINDS.filter((k) =>
  (process.env.BENCH_KINDS ?? ALL_KINDS.join(',')).split(',').includes(k),
);
/**
 * BENCH_CLIENTS=8: the measured run with that many clients instead of 64 (a moderate load: batches of
 * about 3 orders, where what each batch costs weighs on every order).
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
/**
 * CPU time so far (utime + stime), in µs (0 once it is gone): of a process, all its threads; or, with
 * `thread`, of that one thread only (the process's own id: its main thread).
 */
export const cpuMicros = (pid: number, thread?: number) => {
  try {
    const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const f = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS * 1000;
  } catch {
    return 0;
  }
};

/** The backends open now on a database of the benchmark PostgreSQL server. */
export async function backendsOf(database: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  const { rows } = await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  await c.end();
  return rows.map((r) => r.pid);
}

export interface Reading {
  rps: number;
  p99: number;
  server: number;
  pg: number;
  drift: string | null;
  /** Orders per transaction (the group commit's mean batch), when the server counts them. */
  perBatch: number | null;
}

/** One turn: a new server of `root`, a warm-up, then one measured run of each kind. */
export async function turn(
  root: string,
  o: { database: 'postgres' | 'pglite'; seconds: number; env?: Record<string, string> },
): Promise<Record<(typeof ALL_KINDS)[number], Reading>> {
  setServerRoot(root);
  const server = await startAirgift({ database: o.database, env: o.env });
  const dbName = server.databaseUrl ? new URL(server.databaseUrl).pathname.slice(1) : null;
  const readings = {} as Record<(typeof ALL_KINDS)[number], Reading>;
  try {
    for (const kind of KINDS) {
      // the gift card turn's e-mails are rendered after it: not on the next turn's bill
      await outboxDrained(server);
      const account = await benchAccount(server);
      await orderLoad(server, kind, { seconds: 2, clients: 64, account }); // warm-up, opens the pool
      // sampled inside wrk's run (0.7 s after its start, 0.3 s before its end): the checks after it stay
      // out; the backends are those open then (the pool closes idle ones between runs)
      let pids: number[] = [];
      let s0 = 0,
        s1 = 0,
        b0: number[] = [],
        b1: number[] = [];
      setTimeout(async () => {
        pids = dbName ? await backendsOf(dbName) : [];
        s0 = cpuMicros(server.pid);
        b0 = pids.map((pid) => cpuMicros(pid));
      }, 700);
      setTimeout(
        () => {
          s1 = cpuMicros(server.pid);
          b1 = pids.map((pid) => cpuMicros(pid));
        },
        (o.seconds - 0.3) * 1000,
      );
      const batchesBefore = await batchFigures(server);
      const res = await orderLoad(server, kind, { seconds: o.seconds, clients: CLIENTS, account });
      const batchesAfter = await batchFigures(server);
      const orders = res.load.rps * (o.seconds - 1);
      readings[kind] = {
        rps: res.load.rps,
        p99: res.load.p99,
        server: (s1 - s0) / orders,
        pg: (sum(b1) - sum(b0)) / orders,
        drift: res.drift,
        perBatch:
          batchesBefore && batchesAfter
            ? (batchesAfter.orders - batchesBefore.orders) / (batchesAfter.batches - batchesBefore.batches)
            : null,
      };
    }
  } finally {
    await server.stop();
  }
  return readings;
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const line = (name: string, database: string, kind: string, r: Reading) =>
  `${name} ${database} ${kind}: ${r.rps.toFixed(0)} orders/s p99 ${r.p99.toFixed(0)} ms server ${r.server.toFixed(0)} us/order pg ${r.pg.toFixed(0)} us/order drift ${r.drift ?? 'none'}${r.perBatch === null ? '' : ` orders/batch ${r.perBatch.toFixed(1)}`}`;
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The medians of readings, figure by figure; `drift` counts the turns that drifted. */
export function medianReading(rs: Reading[]): Reading {
  const drifts = rs.filter((x) => x.drift !== null).length;
  return {
    rps: median(rs.map((x) => x.rps)),
    p99: median(rs.map((x) => x.p99)),
    server: median(rs.map((x) => x.server)),
    pg: median(rs.map((x) => x.pg)),
    drift: drifts === 0 ? null : `${drifts} turns drifted`,
    perBatch: rs.some((x) => x.perBatch === null) ? null : median(rs.map((x) => x.perBatch ?? 0)),
  };
}

/** `BENCH_SERVER_ENV='NAME=value ...'`: the settings of the other side of a comparison. */
export function serverSettings(spec = process.env.BENCH_SERVER_ENV ?? ''): Record<string, string> {
  return Object.fromEntries(
    spec
      .split(' ')
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 1) throw new Error(`BENCH_SERVER_ENV: "${pair}" is not NAME=value`);
        return [pair.slice(0, eq), pair.slice(eq + 1)];
      }),
  );
}

// bench/floor.ts imports the turn; run alone, this compares checkouts
if (isMain(import.meta.url)) {
  const database = (process.argv[2] ?? 'postgres') as 'postgres' | 'pglite';
  const seconds = Number(process.argv[3] ?? 8);
  const rounds = Number(process.argv[4] ?? 2);
  const other = process.env.BENCH_SERVER_ROOT;
  const settings = serverSettings();
  const compared = other !== undefined || Object.keys(settings).length > 0;
  const sides = compared ? { before: other ?? ROOT, after: ROOT } : { after: ROOT };
  const all: Record<string, Array<Record<string, Reading>>> = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    // A B, then B A: neither side always goes first (a machine warming or cooling)
    const order = Object.entries(sides);
    if (r % 2 === 1) order.reverse();
    for (const [name, root] of order) {
      const env = name === 'before' && !other ? settings : undefined;
      const readings = await turn(root, { database, seconds, env });
      all[name].push(readings);
      for (const kind of KINDS) {
        console.log(
          `RESULT ${line(name, database, kind, readings[kind])} load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
        );
      }
    }
  }
  console.log(`\nmedians of ${rounds} turns each`);
  for (const kind of KINDS) {
    for (const name of Object.keys(sides)) {
      console.log(line(name, database, kind, medianReading(all[name].map((x) => x[kind]))));
    }
  }
}

/**
 * CPU per order of the server process and of its PostgreSQL backends (/proc utime+stime), with
 * orders/s, for gift card orders and top-ups on one account, 64 clients (bench/orders.ts's load).
 *
 *   tsx bench/cpu-per-order.ts [postgres|pglite] [seconds] [rounds]
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { PG_URL, setServerRoot, startAirgift } from './lib.ts';
import { benchAccount, orderLoad } from './orders.ts';

const database = (process.argv[2] ?? 'postgres') as 'postgres' | 'pglite';
const seconds = Number(process.argv[3] ?? 8);
const rounds = Number(process.argv[4] ?? 2);
const TICK_MS = 10;
const ticks = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};

// BENCH_SERVER_ROOT: another checkout's server (say the code before a change), measured the same way
if (process.env.BENCH_SERVER_ROOT) setServerRoot(process.env.BENCH_SERVER_ROOT);
const server = await startAirgift({ database });
const dbName = server.databaseUrl ? new URL(server.databaseUrl).pathname.slice(1) : null;
async function backends(): Promise<number[]> {
  if (!dbName) return [];
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  const { rows } = await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName]);
  await c.end();
  return rows.map((r) => r.pid);
}
try {
  for (const kind of ['giftcards', 'topups'] as const) {
    const account = await benchAccount(server);
    await orderLoad(server, kind, { seconds: 2, clients: 64, account }); // warm-up, opens the pool
    for (let r = 0; r < rounds; r++) {
      // sampled inside wrk's run (0.7 s after its start, 0.3 s before its end): the checks after it stay
      // out; the backends are those open then (the pool closes idle ones between runs)
      let pids: number[] = [];
      let s0 = 0,
        s1 = 0,
        b0: number[] = [],
        b1: number[] = [];
      setTimeout(async () => {
        pids = await backends();
        s0 = ticks(server.pid);
        b0 = pids.map(ticks);
      }, 700);
      setTimeout(
        () => {
          s1 = ticks(server.pid);
          b1 = pids.map(ticks);
        },
        (seconds - 0.3) * 1000,
      );
      const res = await orderLoad(server, kind, { seconds, clients: 64, account });
      const orders = res.load.rps * (seconds - 1);
      const srv = ((s1 - s0) * TICK_MS * 1000) / orders;
      const pgc = ((b1.reduce((a, b) => a + b, 0) - b0.reduce((a, b) => a + b, 0)) * TICK_MS * 1000) / orders;
      console.log(
        `RESULT ${process.env.BENCH_SERVER_ROOT ? 'before' : 'after'} ${database} ${kind}: ${res.load.rps.toFixed(0)} orders/s p99 ${res.load.p99.toFixed(0)} ms server ${srv.toFixed(0)} us/order pg ${pgc.toFixed(0)} us/order drift ${res.drift ?? 'none'} load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
      );
    }
  }
} finally {
  await server.stop();
}

/**
 * The floor of an order on this machine, measured beside pgbench and airgift in one run, turns
 * alternating (a 2-core machine moves by ±25% from one run to the next):
 *
 *   tsx bench/floor.ts [seconds] [rounds]
 *
 * - pgbench `simple-update -c 64` (the issue's yardstick);
 * - the floor, answering: a bare node:https server that reads each POST, parses its JSON and answers
 *   a top-up-sized JSON document at once (bench/floor-server.mjs), under the same wrk load of
 *   top-ups (bench/orders.lua, 64 connections): what HTTPS, HTTP and JSON cost in Node.js alone;
 * - the floor, committing: the same, each order debited from one balance row and inserted in
 *   PostgreSQL, group-committed two transactions at a time as airgift does: the cost of an order
 *   server in Node.js with nothing of an order's rules (no auth, validation, ledger, log or view);
 * - airgift's top-ups and gift card orders on PostgreSQL (bench/cpu-per-order.ts's turn).
 *
 * Each line has orders/s, p99, the server's CPU per order and its PostgreSQL backends' (/proc
 * utime+stime); the medians end with each figure as a ratio of pgbench's tps. A ratio the floor
 * does not reach is out of reach of any Node.js server on this machine, whatever airgift changes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { loadTls } from '../src/http/tls.ts';
import { backendsOf, cpuMicros, median, medianReading, type Reading, sum, turn } from './cpu-per-order.ts';
import { pgbench, ROOT, scratchDatabase, startFloor } from './lib.ts';
import { runOrdersLua } from './orders.ts';

const seconds = Number(process.argv[2] ?? 6);
const rounds = Number(process.argv[3] ?? 3);

let wrkRuns = 0;

/** wrk's top-ups (bench/orders.lua) against a floor server: answers 2xx per second and p99. */
async function wrkTopups(url: string, dir: string): Promise<{ rps: number; p99: number }> {
  const { threads, summary } = await runOrdersLua(url, {
    kind: 'topups',
    prefix: `floor${++wrkRuns}`,
    token: 'none',
    answers: join(dir, 'answers'),
    phoneOffset: 0,
    seconds,
    clients: 64,
  });
  const ok = sum(threads.map((m) => Number(m[4])));
  return { rps: ok / (Number(summary[1]) / 1e6), p99: Number(summary[3]) / 1000 };
}

/** The committing floor's batches so far (`GET /stats` of floor-server.mjs). */
async function floorBatches(url: string, ca: string): Promise<{ batches: number; orders: number }> {
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const res = await request(`${url}/stats`, { dispatcher });
    return (await res.body.json()) as { batches: number; orders: number };
  } finally {
    await dispatcher.close();
  }
}

/** One floor run: a fresh floor server, a 2-second warm-up, then the measured run. */
async function floorTurn(mode: 'answer' | 'commit', tlsDir: string): Promise<Reading> {
  const db = mode === 'commit' ? await scratchDatabase('floor') : null;
  if (db) {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(`CREATE TABLE floor_balance (id int PRIMARY KEY, balance numeric NOT NULL);
      INSERT INTO floor_balance VALUES (1, 1000000000);
      CREATE TABLE floor_orders (id bigserial PRIMARY KEY, custom_identifier text NOT NULL UNIQUE,
        amount numeric NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    await c.end();
  }
  const floor = await startFloor(tlsDir, mode, db?.url);
  const ca = await readFile(join(tlsDir, 'tls', 'ca.crt'), 'utf8');
  try {
    await wrkTopups(floor.url, tlsDir); // warm-up
    const pids = db ? await backendsOf(db.name) : [];
    const before = {
      server: cpuMicros(floor.pid),
      pg: sum(pids.map((pid) => cpuMicros(pid))),
      ...(await floorBatches(floor.url, ca)),
    };
    const load = await wrkTopups(floor.url, tlsDir);
    const after = {
      server: cpuMicros(floor.pid),
      pg: sum(pids.map((pid) => cpuMicros(pid))),
      ...(await floorBatches(floor.url, ca)),
    };
    // wrk's duration covers the whole run here (no checks after it), so the CPU divides by all of it
    const orders = load.rps * seconds;
    return {
      rps: load.rps,
      p99: load.p99,
      server: (after.server - before.server) / orders,
      pg: (after.pg - before.pg) / orders,
      drift: null,
      perBatch:
        after.batches > before.batches
          ? (after.orders - before.orders) / (after.batches - before.batches)
          : null,
    };
  } finally {
    await floor.stop();
    await db?.drop();
  }
}

const tlsDir = await mkdtemp(join(tmpdir(), 'airgift-floor-'));
await loadTls({ dataDir: tlsDir, hosts: [] });
const names = ['floor, answering', 'floor, committing', 'airgift top-ups', 'airgift gift card orders'];
const readings: Record<string, Reading[]> = Object.fromEntries(names.map((n) => [n, []]));
const tps: number[] = [];
const fmt = (name: string, r: Reading) =>
  `${name.padEnd(26)} ${r.rps.toFixed(0).padStart(6)} orders/s  p99 ${r.p99.toFixed(0).padStart(3)} ms  server ${r.server.toFixed(0).padStart(4)} us/order  pg ${r.pg.toFixed(0).padStart(4)} us/order${r.perBatch === null ? '' : `  orders/batch ${r.perBatch.toFixed(1)}`}`;
try {
  for (let r = 0; r < rounds; r++) {
    const steps: Array<() => Promise<void>> = [
      async () => {
        tps.push((await pgbench({ clients: 64, seconds })).tps);
        console.log(`RESULT pgbench simple-update -c 64: ${tps.at(-1)?.toFixed(0)} tps`);
      },
      async () => {
        readings[names[0]].push(await floorTurn('answer', tlsDir));
        console.log(`RESULT ${fmt(names[0], readings[names[0]].at(-1) as Reading)}`);
      },
      async () => {
        readings[names[1]].push(await floorTurn('commit', tlsDir));
        console.log(`RESULT ${fmt(names[1], readings[names[1]].at(-1) as Reading)}`);
      },
      async () => {
        const a = await turn(ROOT, { database: 'postgres', seconds });
        readings[names[2]].push(a.topups);
        readings[names[3]].push(a.giftcards);
        if (a.topups.drift || a.giftcards.drift)
          throw new Error(`drift: ${a.topups.drift ?? a.giftcards.drift}`);
        console.log(`RESULT ${fmt(names[2], a.topups)}\nRESULT ${fmt(names[3], a.giftcards)}`);
      },
    ];
    // each round in the other order: neither side always runs on a warmer machine
    if (r % 2 === 1) steps.reverse();
    for (const step of steps) await step();
  }
  const base = median(tps);
  console.log(`\nmedians of ${rounds} rounds; pgbench simple-update -c 64: ${base.toFixed(0)} tps`);
  for (const name of names) {
    const m = medianReading(readings[name]);
    console.log(`${fmt(name, m)}  ${(m.rps / base).toFixed(2)}x pgbench`);
  }
} finally {
  await rm(tlsDir, { recursive: true, force: true });
}

/**
 * What one kept read (a catalog read, the balance) costs the server's CPU, against the bare
 * `node:https` server answering the same bytes: two airgift servers (A: this checkout; B: another
 * checkout, `BENCH_SERVER_ROOT`, or this one with `BENCH_SERVER_ENV` settings, say
 * `REQUEST_LOG_DAYS=0`) and the bare server, in 5 s wrk turns of 32 connections whose order
 * alternates, on PostgreSQL (or on the embedded database, whose CPU is then the server's). Not in
 * `npm run bench`:
 *
 *   npx tsx bench/read-cpu.ts [read] [rounds] [postgres|pglite] [together]   (read: a name of catalog.ts's reads; default balance 4 postgres)
 *
 * `together`: each round loads the three servers at once, each with its own wrk of 16 connections,
 * instead of one after the other. On a machine whose speed moves from one turn to the next (seen:
 * the bare server at 29 to 60 µs per read within one run), the three then share whatever the machine
 * gives, and the ratios of a round (A/bare, B/bare, A/B) compare like with like; they end the run.
 *
 * Per turn: requests/s, the process's CPU per request (/proc: its main thread, and its other threads,
 * V8's helpers among them), and for airgift the garbage collections the turn made (bench/gc-stats.mjs
 * loaded into it) and the request log's rows written and dropped. The medians end it. A read's
 * rate is about one over its server CPU: the server's thread is the bottleneck of a kept read.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG_READS, readTargets } from './catalog.ts';
import { cpuMicros, median, serverSettings } from './cpu-per-order.ts';
import {
  fetchAnswer,
  isMain,
  metricsText,
  postgresAvailable,
  ROOT,
  type RunningServer,
  setServerRoot,
  startAirgift,
  startBaseline,
  wrk,
  wrkAvailable,
} from './lib.ts';

const SECONDS = 5;

/** CPU so far of a process, µs: its main thread, and its other threads together. */
function threadsCpu(pid: number): { main: number; others: number } {
  const main = cpuMicros(pid, pid);
  return { main, others: cpuMicros(pid) - main };
}

interface GcStats {
  minor: { n: number; ms: number };
  major: { n: number; ms: number };
  heapUsed: number;
  /** bytes the old generation grew by, summed over 20 ms samples: about what was promoted into it */
  promoted: number;
  /** the young generation's size now */
  youngSize: number;
}

export async function readCpu(
  name = 'balance',
  rounds = 4,
  database: 'postgres' | 'pglite' = 'postgres',
  together = false,
) {
  if (!CATALOG_READS.some(([n]) => n === name)) throw new Error(`unknown read ${name}`);
  const gcDir = await mkdtemp(join(tmpdir(), 'airgift-gc-'));
  process.env.BENCH_GC_STATS_DIR = gcDir;
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --import ${join(import.meta.dirname, 'gc-stats.mjs')}`;
  const servers: Array<{ label: string; server: RunningServer }> = [];
  let baseline: Awaited<ReturnType<typeof startBaseline>> | null = null;
  try {
    setServerRoot(ROOT);
    servers.push({ label: 'A', server: await startAirgift({ database }) });
    if (process.env.BENCH_SERVER_ROOT) setServerRoot(process.env.BENCH_SERVER_ROOT);
    servers.push({
      label: 'B',
      server: await startAirgift({ database, env: serverSettings() }),
    });
    const targets = await Promise.all(
      servers.map(async ({ server }) => (await readTargets(server)).find((t) => t.name === name)!),
    );
    const a = servers[0].server;
    baseline = await startBaseline(a.dataDir, {
      [targets[0].path]: await fetchAnswer(a, targets[0].path, targets[0].headers),
    });
    const sides = [
      ...servers.map(({ label, server }, i) => ({
        label,
        url: server.url,
        pid: server.pid,
        target: targets[i],
        server,
      })),
      { label: 'bare', url: baseline.url, pid: baseline.pid, target: targets[0], server: null },
    ];
    const perRequest: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.label, []]));
    const load = (s: (typeof sides)[number], seconds: number, connections = 32) =>
      wrk(`${s.url}${s.target.path}`, { seconds, connections, headers: s.target.headers, ca: a.ca });
    const gcOf = (pid: number): GcStats => JSON.parse(readFileSync(join(gcDir, `gc-${pid}.json`), 'utf8'));
    for (const s of sides) await load(s, 2); // warm-up
    /** Runs one turn of load on `turn` (one side, or all at once) and prints each side's figures. */
    const measure = async (round: number, turn: Array<(typeof sides)[number]>) => {
      const before = turn.map((s) => ({ cpu: threadsCpu(s.pid), gc: s.server ? gcOf(s.pid) : null }));
      const results = await Promise.all(turn.map((s) => load(s, SECONDS, turn.length > 1 ? 16 : 32)));
      const after = turn.map((s) => threadsCpu(s.pid));
      if (turn.some((s) => s.server)) await new Promise((resolve) => setTimeout(resolve, 600)); // the stats files' next write
      const cpu: Record<string, number> = {};
      for (const [i, s] of turn.entries()) {
        const r = results[i];
        const main = (after[i].main - before[i].cpu.main) / r.requests;
        const others = (after[i].others - before[i].cpu.others) / r.requests;
        perRequest[s.label].push(main + others);
        cpu[s.label] = main + others;
        let extra = '';
        const gcBefore = before[i].gc;
        if (s.server && gcBefore) {
          const gc = gcOf(s.pid);
          const minor = gc.minor.n - gcBefore.minor.n;
          const log = (await metricsText(s.server)).match(
            /request_log_rows_total\{outcome="(written|dropped)"\} \d+/g,
          );
          extra =
            `; young collections ${minor}, ${((gc.minor.ms - gcBefore.minor.ms) / Math.max(minor, 1)).toFixed(2)} ms each, ` +
            `full ${gc.major.n - gcBefore.major.n}; promoted ${((gc.promoted - gcBefore.promoted) / r.requests).toFixed(0)} B per request; ` +
            `young generation ${(gc.youngSize / 2 ** 20).toFixed(0)} MB; heap ${(gc.heapUsed / 2 ** 20).toFixed(0)} MB; ${log?.join(', ') ?? ''}`;
        }
        console.log(
          `round ${round + 1} ${s.label.padEnd(4)} ${String(Math.round(r.rps)).padStart(6)} req/s, ` +
            `CPU ${(main + others).toFixed(1)} µs per request (main thread ${main.toFixed(1)}, other threads ${others.toFixed(1)})${extra}`,
        );
      }
      return cpu;
    };
    const ratios: Record<string, number[]> = { 'A/bare': [], 'B/bare': [], 'A/B': [] };
    for (let round = 0; round < rounds; round++) {
      if (together) {
        const cpu = await measure(round, sides);
        ratios['A/bare'].push(cpu.A / cpu.bare);
        ratios['B/bare'].push(cpu.B / cpu.bare);
        ratios['A/B'].push(cpu.A / cpu.B);
      } else for (const s of round % 2 === 0 ? sides : [...sides].reverse()) await measure(round, [s]);
    }
    const medians = Object.fromEntries(sides.map((s) => [s.label, median(perRequest[s.label])]));
    console.log(
      `\nmedians of ${rounds}, CPU per ${name} read: ${sides.map((s) => `${s.label} ${medians[s.label].toFixed(1)} µs`).join(', ')}`,
    );
    if (together) {
      const each = Object.entries(ratios).map(
        ([k, v]) =>
          `${k} ${median(v).toFixed(2)} (${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)})`,
      );
      console.log(`CPU per read, ratios of the same round, medians: ${each.join(', ')}`);
    }
    return medians;
  } finally {
    await baseline?.stop();
    for (const { server } of servers) await server.stop();
    await rm(gcDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  if (!(await postgresAvailable()) || !(await wrkAvailable()))
    console.log('read-cpu: needs PostgreSQL and wrk; skipped');
  else
    await readCpu(
      process.argv[2],
      Number(process.argv[3] ?? 4),
      process.argv[4] === 'pglite' ? 'pglite' : 'postgres',
      process.argv.includes('together'),
    );
}

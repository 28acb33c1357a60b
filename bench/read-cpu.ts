/**
 * What one kept read (a catalog read, the balance) costs the server's CPU, against the bare
 * `node:https` server answering the same bytes: two airgift servers (A: this checkout; B: another
 * checkout, `BENCH_SERVER_ROOT`, or this one with `BENCH_SERVER_ENV` settings, say
 * `REQUEST_LOG_DAYS=0`) and the bare server, in 5 s wrk turns of 32 connections whose order
 * alternates, on PostgreSQL (or on the embedded database, whose CPU is then the server's). Not in
 * `npm run bench`:
 *
 *   npx tsx bench/read-cpu.ts [read] [rounds] [postgres|pglite]   (read: a name of catalog.ts's reads; default balance 4 postgres)
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

export async function readCpu(name = 'balance', rounds = 4, database: 'postgres' | 'pglite' = 'postgres') {
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
    const load = (s: (typeof sides)[number], seconds: number) =>
      wrk(`${s.url}${s.target.path}`, { seconds, connections: 32, headers: s.target.headers, ca: a.ca });
    const gcOf = (pid: number): GcStats => JSON.parse(readFileSync(join(gcDir, `gc-${pid}.json`), 'utf8'));
    for (const s of sides) await load(s, 2); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = threadsCpu(s.pid);
        const gcBefore = s.server ? gcOf(s.pid) : null;
        const r = await load(s, SECONDS);
        const after = threadsCpu(s.pid);
        const main = (after.main - before.main) / r.requests;
        const others = (after.others - before.others) / r.requests;
        perRequest[s.label].push(main + others);
        let extra = '';
        if (s.server && gcBefore) {
          await new Promise((resolve) => setTimeout(resolve, 600)); // the stats file's next write
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
    }
    const medians = Object.fromEntries(sides.map((s) => [s.label, median(perRequest[s.label])]));
    console.log(
      `\nmedians of ${rounds}, CPU per ${name} read: ${sides.map((s) => `${s.label} ${medians[s.label].toFixed(1)} µs`).join(', ')}`,
    );
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
    );
}

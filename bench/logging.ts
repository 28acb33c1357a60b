/**
 * What the default logging costs a catalog read: one server at `LOG_LEVEL=info` (the default, an
 * access line per request) and one at `warn` (no line per request), both running, the same product
 * read driven by wrk on each in turns (info, warn, warn, info, twice), so the ratio is measured under
 * one machine load. Twice: the log to /dev/null, and to a pipe this process reads (as a log collector
 * would). Then the info server against a bare node:https server sending the same bytes.
 *
 *   npm run bench -- logging [--smoke]        (or: tsx bench/logging.ts)
 */
import { readFile } from 'node:fs/promises';
import {
  type BenchOptions,
  benchOptions,
  type Figure,
  fetchAnswer,
  isMain,
  type LoadResult,
  postgresAvailable,
  printFigures,
  type RunningServer,
  startAirgift,
  startBaseline,
  tokenFor,
  wrk,
} from './lib.ts';

const BASE = '/giftcards-sandbox';
const PATH = `${BASE}/products/1840`;

export async function readHeaders(server: RunningServer) {
  return { authorization: `Bearer ${await tokenFor(server, BASE)}`, accept: 'application/json' };
}

export interface Target {
  url: string;
  headers: Record<string, string>;
  ca: string;
  /** The server's process, whose CPU time per request is measured (none for the bare baseline). */
  pid?: number;
}

/** CPU time (user + system) a process has used, µs (Linux /proc, clock ticks of 10 ms). */
async function cpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Waits (at most 60 s) until a freshly started server is idle: its first minute compiles
 * (PGlite's WebAssembly, the JIT) and seeds, which on a loaded machine would land in the turns.
 */
async function settle(pid: number) {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const before = await cpuMicros(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if ((await cpuMicros(pid)) - before < 50_000) return;
  }
}

/**
 * Turns on `a` and `b` in A B B A order, `rounds` times: the mean rate of each, and the server's CPU
 * per request (µs), which a machine shared with other work moves less than the rate.
 */
export async function alternate(a: Target, b: Target, seconds: number, rounds: number) {
  const load = async (t: Target) => {
    const cpu = t.pid ? await cpuMicros(t.pid) : 0;
    const r = await wrk(`${t.url}${PATH}`, { seconds, connections: 32, headers: t.headers, ca: t.ca });
    return { ...r, cpuPerRequest: t.pid ? ((await cpuMicros(t.pid)) - cpu) / r.requests : Number.NaN };
  };
  for (const t of [a, b]) if (t.pid) await settle(t.pid);
  await load(a); // warm-up (JIT, kept answers)
  await load(b);
  const as: Array<LoadResult & { cpuPerRequest: number }> = [];
  const bs: typeof as = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await load(a));
    bs.push(await load(b));
    bs.push(await load(b));
    as.push(await load(a));
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const failures = [...as, ...bs].reduce((s, x) => s + x.failures, 0);
  return {
    a: mean(as.map((x) => x.rps)),
    b: mean(bs.map((x) => x.rps)),
    cpuA: mean(as.map((x) => x.cpuPerRequest)),
    cpuB: mean(bs.map((x) => x.cpuPerRequest)),
    failures,
    turns: { a: as.map((x) => x.rps), b: bs.map((x) => x.rps) },
  };
}

const fmt = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');

export async function run(o: BenchOptions): Promise<Figure[]> {
  // 5 s turns: on a loaded machine 32 TLS handshakes can take most of a 2 s turn.
  const seconds = o.smoke ? 1 : Number(process.env.BENCH_TURN_SECONDS ?? 5);
  const rounds = o.smoke ? 1 : 2;
  const figures: Figure[] = [];
  // A smoke run (CI) proves the pipe case only, the one with the bare comparison too.
  // It runs on PostgreSQL when it is there: two servers start in seconds where PGlite's first starts
  // run initdb (about 6 s each); the orders, system and soak smoke runs start PGlite.
  const database = o.smoke && (await postgresAvailable()) ? 'postgres' : 'pglite';
  for (const stdout of o.smoke ? (['pipe'] as const) : (['null', 'pipe'] as const)) {
    const where = stdout === 'null' ? 'stdout to /dev/null' : 'stdout to a pipe, read';
    const info = await startAirgift({ database, stdout, env: { LOG_LEVEL: 'info' } });
    const warn = await startAirgift({ database, stdout, env: { LOG_LEVEL: 'warn' } });
    try {
      const a = { url: info.url, headers: await readHeaders(info), ca: info.ca, pid: info.pid };
      const b = { url: warn.url, headers: await readHeaders(warn), ca: warn.ca, pid: warn.pid };
      const r = await alternate(a, b, seconds, rounds);
      const ratio = r.a / r.b;
      figures.push({
        figure: `product read, LOG_LEVEL=info vs warn, ${where}`,
        value: `${r.a.toFixed(0)} req/s (turns ${fmt(r.turns.a)}), ${r.cpuA.toFixed(1)} µs CPU/request${r.failures ? ` FAILURES ${r.failures}` : ''}`,
        baseline: `warn ${r.b.toFixed(0)} req/s (turns ${fmt(r.turns.b)}), ${r.cpuB.toFixed(1)} µs CPU/request (CPU ratio ${(r.cpuB / r.cpuA).toFixed(2)}×)`,
        ratio,
        goal: '≥ 0.85× (logging costs ≤ 15%)',
        met: ratio >= 0.85 && r.failures === 0,
      });
      if (stdout === 'pipe') {
        // The default a user runs (info, a reader on the log) against bare node:https.
        const answer = await fetchAnswer(info, PATH, a.headers);
        const baseline = await startBaseline(info.dataDir, { [PATH]: answer });
        try {
          const bare = await alternate(a, { url: baseline.url, headers: a.headers, ca: info.ca }, seconds, 1);
          const vsBare = bare.a / bare.b;
          figures.push({
            figure: `product read, LOG_LEVEL=info, ${where}, vs bare`,
            value: `${bare.a.toFixed(0)} req/s (turns ${fmt(bare.turns.a)}), ${bare.cpuA.toFixed(1)} µs CPU/request`,
            baseline: `bare node:https ${bare.b.toFixed(0)} req/s (turns ${fmt(bare.turns.b)})`,
            ratio: vsBare,
            goal: '≥ 0.8×',
            met: vsBare >= 0.8 && bare.failures === 0,
          });
        } finally {
          await baseline.stop();
        }
      }
    } finally {
      await info.stop();
      await warn.stop();
    }
  }
  return figures;
}

if (isMain(import.meta.url)) printFigures('the cost of the default logging', await run(benchOptions()));

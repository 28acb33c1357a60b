/**
 * The process as `npm start` runs it (embedded PGlite, a fresh data directory): time of the first
 * start, resident memory after 60 s of mixed load (catalog reads, gift card orders, top-ups, reports),
 * then the time of a restart on the same data directory and its idle memory.
 *
 *   npm run bench -- system [--smoke]        (or: tsx bench/system.ts)
 */
import { rm } from 'node:fs/promises';
import { readTargets } from './catalog.ts';
import {
  type BenchOptions,
  benchOptions,
  drive,
  type Figure,
  isMain,
  printFigures,
  rssMb,
  sleep,
  startAirgift,
  tokenFor,
} from './lib.ts';
import { orderLoad } from './orders.ts';

export async function run(o: BenchOptions): Promise<Figure[]> {
  const seconds = o.smoke ? 5 : 60;
  const first = await startAirgift({ database: 'pglite' });
  const dataDir = first.dataDir;
  let restartMs = Number.NaN;
  let rssLoad = Number.NaN;
  let rssRestart = Number.NaN;
  let peak = 0;
  /** Samples of the last 10 s of the load: one reading moves by ±50 MB with the V8 heap's GC cycle. */
  const lastSamples: number[] = [];
  try {
    const targets = await readTargets(first);
    const reportsToken = await tokenFor(first, '/giftcards-sandbox');
    const loadStarted = performance.now();
    const sampler = setInterval(() => {
      rssMb(first.pid).then(
        (mb) => {
          peak = Math.max(peak, mb);
          if (performance.now() - loadStarted >= (seconds - 10) * 1000) lastSamples.push(mb);
        },
        () => undefined,
      );
    }, 500);
    const reads = Promise.all(
      targets.map((t) =>
        drive(`${first.url}${t.path}`, {
          ca: first.ca,
          total: 1e9,
          durationMs: seconds * 1000,
          concurrency: 2,
          headers: t.headers,
        }),
      ),
    );
    const reports = drive(`${first.url}/giftcards-sandbox/reports/transactions?size=50`, {
      ca: first.ca,
      total: 1e9,
      durationMs: seconds * 1000,
      concurrency: 2,
      headers: { authorization: `Bearer ${reportsToken}`, accept: 'application/json' },
    });
    await Promise.all([
      reads,
      reports,
      orderLoad(first, 'giftcards', { seconds, clients: 8 }),
      orderLoad(first, 'topups', { seconds, clients: 8 }),
    ]);
    clearInterval(sampler);
    rssLoad = await rssMb(first.pid);
    await first.kill();
    const again = await startAirgift({ database: 'pglite', dataDir });
    restartMs = again.startMs;
    await sleep(2000);
    rssRestart = await rssMb(again.pid);
    await again.kill();
  } finally {
    await first.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
  return [
    {
      figure: `RSS after ${seconds} s of mixed load (PGlite)`,
      value: `${rssLoad.toFixed(0)} MB (mean of the load's last 10 s ${mean(lastSamples).toFixed(0)} MB, peak ${peak.toFixed(0)} MB)`,
      goal: '≤ 300 MB',
      met: rssLoad <= 300,
    },
    {
      figure: 'first start on a new data directory (PGlite)',
      value: `${(first.startMs / 1000).toFixed(2)} s`,
      goal: '≤ 10 s',
      met: first.startMs <= 10_000,
    },
    {
      figure: 'restart on an existing data directory (PGlite)',
      value: `${(restartMs / 1000).toFixed(2)} s, idle RSS ${rssRestart.toFixed(0)} MB`,
      goal: '≤ 2 s',
      met: restartMs <= 2000,
    },
  ];
}

if (isMain(import.meta.url)) printFigures('memory and restart', await run(benchOptions()));

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

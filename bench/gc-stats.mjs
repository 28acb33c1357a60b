/**
 * Loaded into a server by bench/read-cpu.ts (`node --import`): its garbage collections counted by
 * kind, with their time in the main thread, and the heap's size, written every 500 ms to
 * `$BENCH_GC_STATS_DIR/gc-<pid>.json` for the benchmark to read between its turns.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};
const collections = {
  minor: { n: 0, ms: 0 },
  major: { n: 0, ms: 0 },
  incremental: { n: 0, ms: 0 },
  weak: { n: 0, ms: 0 },
};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = collections[KINDS[e.detail?.kind]];
    if (!kind) continue;
    kind.n++;
    kind.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
const file = join(process.env.BENCH_GC_STATS_DIR ?? '/tmp', `gc-${process.pid}.json`);
setInterval(() => {
  const { heapUsed } = process.memoryUsage();
  writeFileSync(file, JSON.stringify({ ...collections, heapUsed }));
}, 500).unref();

/**
 * Loaded into a server by bench/read-cpu.ts (`node --import`): its young and full garbage
 * collections counted, with their time in the main thread; the old generation's growth (sampled
 * every 20 ms: about what the young collections promote into it); the young generation's size and
 * the heap's; written every 500 ms to `$BENCH_GC_STATS_DIR/gc-<pid>.json` for the benchmark to read
 * between its turns.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
};
const collections = { minor: { n: 0, ms: 0 }, major: { n: 0, ms: 0 } };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = collections[KINDS[e.detail?.kind]];
    if (!kind) continue;
    kind.n++;
    kind.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
let promoted = 0;
let oldUsed = 0;
let youngSize = 0;
setInterval(() => {
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'old_space') {
      if (space.space_used_size > oldUsed) promoted += space.space_used_size - oldUsed;
      oldUsed = space.space_used_size;
    }
    if (space.space_name === 'new_space') youngSize = space.space_size;
  }
}, 20).unref();
const file = join(process.env.BENCH_GC_STATS_DIR ?? '/tmp', `gc-${process.pid}.json`);
setInterval(() => {
  const { heapUsed } = process.memoryUsage();
  // written aside and renamed: the benchmark never reads half a file
  writeFileSync(`${file}.part`, JSON.stringify({ ...collections, heapUsed, promoted, youngSize }));
  renameSync(`${file}.part`, file);
}, 500).unref();

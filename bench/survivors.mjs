/**
 * Loaded into a server by bench/survivors.ts (`node --import`): SIGUSR2 starts a sampled allocation
 * profile that keeps the objects full collections collect but not those young collections collect
 * (the inspector's HeapProfiler with includeObjectsCollectedByMajorGC and not ...MinorGC): what
 * survived the young generation (promoted, or allocated old: pretenured), by allocation site. The
 * second SIGUSR2 stops it and writes `$BENCH_SURVIVORS_DIR/heap-<pid>.json`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const session = new Session();
session.connect();
const dir = process.env.BENCH_SURVIVORS_DIR ?? '/tmp';
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 2048,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return console.error('survivors.mjs:', error.message);
    const file = join(dir, `heap-${process.pid}.json`);
    // written aside and renamed: the benchmark never reads half a file
    writeFileSync(`${file}.part`, JSON.stringify(result.profile));
    renameSync(`${file}.part`, file);
  });
});

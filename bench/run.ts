/**
 * `npm run bench [-- <name>...] [--smoke] [--compare DIR]`: runs the benchmarks of the performance
 * goals (all of them, or those named) one after another and prints every figure with its ratio and
 * goal. `--smoke` runs each for a moment only: CI uses it to prove they still work; it asserts no
 * time. `--compare DIR` runs each benchmark first against the checkout in DIR (say the code before a
 * change, `git worktree add` or `git archive` of it, with a node_modules), then against this one, so
 * before and after are measured side by side under the same machine load.
 */
import { resolve } from 'node:path';
import { benchOptions, type Figure, printFigures, ROOT, setServerRoot } from './lib.ts';

const BENCHMARKS: Record<string, () => Promise<{ run(o: { smoke: boolean }): Promise<Figure[]> }>> = {
  catalog: () => import('./catalog.ts'),
  logging: () => import('./logging.ts'),
  orders: () => import('./orders.ts'),
  delivery: () => import('./delivery.ts'),
  'daily-limits': () => import('./daily-limits.ts'),
  reports: () => import('./reports.ts'),
  system: () => import('./system.ts'),
  scale: () => import('./scale.ts'),
  soak: () => import('./soak.ts'),
};

const argv = process.argv.slice(2);
const compareAt = argv.indexOf('--compare');
const compareDir = compareAt >= 0 ? resolve(argv[compareAt + 1] ?? '') : null;
const args = argv.filter((a, i) => !a.startsWith('--') && (compareAt < 0 || i !== compareAt + 1));
const unknown = args.filter((a) => !(a in BENCHMARKS));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
const options = benchOptions();
const names = args.length ? args : Object.keys(BENCHMARKS);
const all: Figure[] = [];
const started = Date.now();
const before: Figure[] = [];
for (const name of names) {
  const bench = await BENCHMARKS[name]();
  if (compareDir) {
    setServerRoot(compareDir);
    const t = Date.now();
    const figures = await bench.run(options);
    printFigures(`${name}, before: ${compareDir} (${((Date.now() - t) / 1000).toFixed(0)} s)`, figures);
    before.push(...figures.map((f) => ({ ...f, figure: `${f.figure} [before]` })));
    setServerRoot(ROOT);
  }
  const t = Date.now();
  const figures = await bench.run(options);
  printFigures(`${name} (${((Date.now() - t) / 1000).toFixed(0)} s)`, figures);
  all.push(...figures);
}
if (compareDir) printFigures(`before (${compareDir})`, before);
printFigures(
  `all figures${options.smoke ? ' (smoke run: durations too short to mean anything)' : ''}, ${new Date().toISOString()}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  all,
);

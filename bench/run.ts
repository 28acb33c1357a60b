/**
 * `npm run bench [-- <name>...] [--smoke]`: runs the benchmarks of the performance goals (all of
 * them, or those named) one after another and prints every figure with its ratio and goal. `--smoke`
 * runs each for a moment only: CI uses it to prove they still work; it asserts no time.
 */
import { benchOptions, type Figure, printFigures } from './lib.ts';

const BENCHMARKS: Record<string, () => Promise<{ run(o: { smoke: boolean }): Promise<Figure[]> }>> = {
  catalog: () => import('./catalog.ts'),
  orders: () => import('./orders.ts'),
  'daily-limits': () => import('./daily-limits.ts'),
  reports: () => import('./reports.ts'),
  system: () => import('./system.ts'),
  scale: () => import('./scale.ts'),
};

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const unknown = args.filter((a) => !(a in BENCHMARKS));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
const options = benchOptions();
const names = args.length ? args : Object.keys(BENCHMARKS);
const all: Figure[] = [];
const started = Date.now();
for (const name of names) {
  const t = Date.now();
  const figures = await (await BENCHMARKS[name]()).run(options);
  printFigures(`${name} (${((Date.now() - t) / 1000).toFixed(0)} s)`, figures);
  all.push(...figures);
}
printFigures(
  `all figures${options.smoke ? ' (smoke run: durations too short to mean anything)' : ''}, ${new Date().toISOString()}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  all,
);

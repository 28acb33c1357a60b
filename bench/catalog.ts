/**
 * Catalog reads: every authenticated catalog GET of the goals table through the whole stack (TLS,
 * base routing, token check, the answer) against a bare node:https server in its own process sending
 * the same bytes, on PGlite and on PostgreSQL. Each pair is measured back to back with wrk.
 *
 *   npm run bench -- catalog [--smoke]        (or: tsx bench/catalog.ts)
 */
import {
  type BaselineAnswer,
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

const GC = '/giftcards-sandbox';
const TU = '/topups-sandbox';

/** The reads of the goals table: name, base, path. */
export const CATALOG_READS: Array<[string, string, string]> = [
  ['products', GC, '/products?countryCode=GB&size=10'],
  ['product', GC, '/products/1840'],
  ['countries', GC, '/countries'],
  ['fx-rate', GC, '/fx-rate?currencyCode=EUR&amount=10'],
  ['balance', GC, '/accounts/balance'],
  ['operators', TU, '/operators/countries/NG'],
  ['operator', TU, '/operators/1001'],
  ['commissions', TU, '/operators/commissions?size=10'],
  ['promotions', TU, '/promotions?size=10'],
];

const SMOKE_READS = ['products', 'balance', 'operators'];

export interface ReadTarget {
  name: string;
  path: string;
  headers: Record<string, string>;
}

/** Tokens for both products of the bootstrap account, and the headers of each read. */
export async function readTargets(server: RunningServer): Promise<ReadTarget[]> {
  const tokens: Record<string, string> = {
    [GC]: await tokenFor(server, GC),
    [TU]: await tokenFor(server, TU),
  };
  return CATALOG_READS.map(([name, base, path]) => ({
    name,
    path: `${base}${path}`,
    headers: { authorization: `Bearer ${tokens[base]}`, accept: 'application/json' },
  }));
}

export async function measureReads(server: RunningServer, o: BenchOptions, label: string): Promise<Figure[]> {
  const seconds = o.smoke ? 1 : 2;
  const connections = 32;
  const targets = await readTargets(server);
  const bodies: Record<string, BaselineAnswer> = {};
  for (const t of targets) bodies[t.path] = await fetchAnswer(server, t.path, t.headers);
  const baseline = await startBaseline(server.dataDir, bodies);
  const figures: Figure[] = [];
  // A smoke run (CI) proves the measuring works on three reads: one of each product and the balance.
  const measured = o.smoke ? targets.filter((t) => SMOKE_READS.includes(t.name)) : targets;
  try {
    for (const t of measured) {
      const load = (url: string) => wrk(url, { seconds, connections, headers: t.headers, ca: server.ca });
      // A B B A: neither side always runs first or last on a machine whose load moves. A smoke run
      // (CI) proves each read answers under load: one turn each, no warm-up.
      if (!o.smoke) await load(`${server.url}${t.path}`); // warm-up (JIT, caches)
      const order = o.smoke
        ? [server.url, baseline.url]
        : [server.url, baseline.url, baseline.url, server.url];
      const turns: LoadResult[] = [];
      for (const url of order) turns.push(await load(`${url}${t.path}`));
      const a = o.smoke ? turns[0] : sum(turns[0], turns[3]);
      const b = o.smoke ? turns[1] : sum(turns[1], turns[2]);
      const ratio = a.rps / b.rps;
      figures.push({
        figure: `catalog ${t.name} (${label})`,
        value: `${a.rps.toFixed(0)} req/s p99 ${a.p99.toFixed(1)} ms${a.failures ? ` FAILURES ${a.failures}` : ''}`,
        baseline: `bare node:https ${b.rps.toFixed(0)} req/s`,
        ratio,
        goal: '≥ 0.8×',
        met: ratio >= 0.8 && a.failures === 0,
      });
    }
  } finally {
    await baseline.stop();
  }
  return figures;
}

/** Two turns as one: requests and failures added, the rate over both, the worse p99. */
function sum(x: LoadResult, y: LoadResult): LoadResult {
  return {
    requests: x.requests + y.requests,
    rps: (x.rps + y.rps) / 2,
    p50: Math.max(x.p50, y.p50),
    p99: Math.max(x.p99, y.p99),
    failures: x.failures + y.failures,
  };
}

export async function run(o: BenchOptions): Promise<Figure[]> {
  const figures: Figure[] = [];
  // A smoke run reads one database: PostgreSQL when it is there (it starts in a second, PGlite's
  // first start runs initdb); the orders, system and soak smoke runs start PGlite.
  const databases = o.smoke
    ? [(await postgresAvailable()) ? ('postgres' as const) : ('pglite' as const)]
    : (['pglite', 'postgres'] as const);
  for (const database of databases) {
    if (database === 'postgres' && !(await postgresAvailable())) {
      console.log('PostgreSQL not reachable: catalog reads on PostgreSQL skipped');
      continue;
    }
    const server = await startAirgift({ database });
    try {
      figures.push(...(await measureReads(server, o, database === 'pglite' ? 'PGlite' : 'PostgreSQL')));
    } finally {
      await server.stop();
    }
  }
  return figures;
}

if (isMain(import.meta.url)) printFigures('catalog reads vs bare node:https', await run(benchOptions()));

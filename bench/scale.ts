/**
 * Two airgift processes on one PostgreSQL database against one, catalog reads (`/products/{id}`):
 * one process with 64 wrk connections, then both at once with 32 connections each (their sum).
 * Both processes share the data directory (keys, TLS) and PUBLIC_URL, as two servers of one
 * deployment behind a balancer would.
 *
 *   npm run bench -- scale [--smoke]        (or: tsx bench/scale.ts)
 */
import {
  type BenchOptions,
  benchOptions,
  type Figure,
  isMain,
  postgresAvailable,
  printFigures,
  startAirgift,
  tokenFor,
  wrk,
} from './lib.ts';

export async function run(o: BenchOptions): Promise<Figure[]> {
  if (!(await postgresAvailable())) {
    console.log('PostgreSQL not reachable: two-process reads skipped');
    return [];
  }
  const seconds = o.smoke ? 1 : 5;
  const one = await startAirgift({ database: 'postgres' });
  try {
    const two = await startAirgift({
      database: { url: one.databaseUrl as string },
      dataDir: one.dataDir,
    });
    try {
      const token = await tokenFor(one, '/giftcards-sandbox');
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
      const path = '/giftcards-sandbox/products/1840';
      await wrk(`${one.url}${path}`, { seconds: 1, connections: 32, headers, ca: one.ca });
      await wrk(`${two.url}${path}`, { seconds: 1, connections: 32, headers, ca: one.ca });
      const single = await wrk(`${one.url}${path}`, { seconds, connections: 64, headers, ca: one.ca });
      const [a, b] = await Promise.all([
        wrk(`${one.url}${path}`, { seconds, connections: 32, headers, ca: one.ca }),
        wrk(`${two.url}${path}`, { seconds, connections: 32, headers, ca: one.ca }),
      ]);
      const both = a.rps + b.rps;
      const failures = single.failures + a.failures + b.failures;
      return [
        {
          figure: '2 processes on one PostgreSQL vs 1, catalog reads',
          value: `${both.toFixed(0)} req/s${failures ? ` FAILURES ${failures}` : ''}`,
          baseline: `1 process ${single.rps.toFixed(0)} req/s`,
          ratio: both / single.rps,
          goal: '≥ 1.6×',
          met: both / single.rps >= 1.6 && failures === 0,
        },
      ];
    } finally {
      await two.kill();
    }
  } finally {
    await one.stop();
  }
}

if (isMain(import.meta.url)) printFigures('two processes', await run(benchOptions()));

/**
 * Two airgift processes on one PostgreSQL database against one, catalog reads (`/products/{id}`):
 * one process with 64 wrk connections, then both at once with 32 connections each (their sum).
 * Both processes share the data directory (keys, TLS) and PUBLIC_URL, as two servers of one
 * deployment behind a balancer would.
 *
 *   npm run bench -- scale [--smoke]        (or: tsx bench/scale.ts)
 */
import { readFile } from 'node:fs/promises';
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

/** CPU seconds a process has used (Linux /proc; NaN elsewhere). */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The machine's busy and total CPU time so far, in seconds of one core (Linux /proc/stat). */
async function machineSeconds(): Promise<{ busy: number; total: number }> {
  try {
    const cpu = (await readFile('/proc/stat', 'utf8'))
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = cpu.reduce((a, b) => a + b, 0) / 100;
    return { busy: total - (cpu[3] + cpu[4]) / 100, total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/**
 * Runs `work` and says where the CPU went meanwhile: cores used by each server, and by everything
 * else on the machine (wrk, PostgreSQL, other people's work), out of the cores there are.
 */
async function cpuDuring<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; where: string }> {
  const [servers0, machine0, t0] = [
    await Promise.all(pids.map(cpuSeconds)),
    await machineSeconds(),
    performance.now(),
  ];
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  const [servers1, machine1] = [await Promise.all(pids.map(cpuSeconds)), await machineSeconds()];
  const used = servers1.map((c, i) => (c - servers0[i]) / seconds);
  const cores = (machine1.total - machine0.total) / seconds;
  const busy = (machine1.busy - machine0.busy) / seconds;
  const rest = busy - used.reduce((a, b) => a + b, 0);
  return {
    result,
    where: `server${used.length > 1 ? 's' : ''} ${used.map((u) => u.toFixed(2)).join(' + ')} cores, everything else ${rest.toFixed(2)}, idle ${(cores - busy).toFixed(2)} of ${cores.toFixed(0)}`,
  };
}

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
      const { result: single, where: whereOne } = await cpuDuring([one.pid], () =>
        wrk(`${one.url}${path}`, { seconds, connections: 64, headers, ca: one.ca }),
      );
      const {
        result: [a, b],
        where: whereTwo,
      } = await cpuDuring([one.pid, two.pid], () =>
        Promise.all([
          wrk(`${one.url}${path}`, { seconds, connections: 32, headers, ca: one.ca }),
          wrk(`${two.url}${path}`, { seconds, connections: 32, headers, ca: one.ca }),
        ]),
      );
      const both = a.rps + b.rps;
      const failures = single.failures + a.failures + b.failures;
      return [
        {
          figure: '2 processes on one PostgreSQL vs 1, catalog reads',
          value: `${both.toFixed(0)} req/s (${whereTwo})${failures ? ` FAILURES ${failures}` : ''}`,
          baseline: `1 process ${single.rps.toFixed(0)} req/s (${whereOne})`,
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

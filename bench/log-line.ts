/**
 * What writing a request's log costs the process, measured inside one process (its CPU time, which a
 * machine shared with other work moves far less than a throughput): Fastify's two pino lines per
 * request as they were written before issue 30 ("incoming request" with the request serializer,
 * "request completed"; pino with the redaction paths and the line masker), against the one access
 * line (src/http/access-log.ts), each into a log destination writing to /dev/null. Rounds
 * alternate; the median of each is printed. With `--before DIR` (a checkout of the older code) the
 * two pino lines run on that checkout's destination and masker, as they were; without it on this
 * checkout's.
 *
 *   npx tsx bench/log-line.ts [rounds] [--before DIR]
 */
import fs from 'node:fs';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { createAccessLog } from '../src/http/access-log.ts';
import { createLogDestination } from '../src/lib/log-destination.ts';
import { logLineMasker } from '../src/lib/log-redaction.ts';

const argv = process.argv.slice(2);
const beforeAt = argv.indexOf('--before');
const beforeDir = beforeAt >= 0 ? resolve(argv[beforeAt + 1] ?? '.') : join(import.meta.dirname, '..');
const rounds = Number(argv.find((a, i) => /^\d+$/.test(a) && i !== beforeAt + 1) ?? 5);
const old = {
  destination: await import(join(beforeDir, 'src/lib/log-destination.ts')),
  redaction: await import(join(beforeDir, 'src/lib/log-redaction.ts')),
  requestLog: await import(join(beforeDir, 'src/http/request-log.ts')),
};

const adminKey = 'adm_0123456789abcdefghijklmnop';
const oldLogs = old.destination.createLogDestination(fs.openSync('/dev/null', 'w'));
const log = pino(
  old.requestLog.withPublicRequestUrls({ level: 'info', ...old.redaction.logRedaction([adminKey]) }),
  oldLogs,
);
const logs = createLogDestination(fs.openSync('/dev/null', 'w'));
const access = createAccessLog({
  write: (line) => logs.write(line),
  mask: logLineMasker([adminKey]),
  enabled: () => true,
});
const socket = { remoteAddress: '127.0.0.1', remotePort: 50123 };
const url = '/giftcards-sandbox/products/1840';

const ways: Record<string, (i: number) => void> = {
  'two pino lines (before)': (i) => {
    const reqId = `req_mif3k2a1${i}`;
    const req = {
      method: 'GET',
      url: '/_giftcards/products/1840',
      originalUrl: url,
      host: 'localhost',
      ip: '127.0.0.1',
      socket,
    };
    log.info({ reqId, req }, 'incoming request');
    log.info({ reqId, res: { statusCode: 200 }, responseTime: 0.4123 }, 'request completed');
  },
  'one access line (after)': (i) => {
    access.write({
      reqId: `req_mif3k2a1${i}`,
      method: 'GET',
      url,
      host: 'localhost',
      statusCode: 200,
      ms: 0.4123,
      remoteAddress: '127.0.0.1',
      accountId: 1,
      clientId: 'c2f1a9b8e7d6c5b4',
    });
  },
};

/** µs of CPU per request: `n` requests, the event loop turning every 20 (as a server's would). */
async function round(write: (i: number) => void, n: number): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    write(i);
    if (i % 20 === 19) await new Promise((r) => setImmediate(r));
  }
  await logs.flush(5000);
  await new Promise((r) => setTimeout(r, 20)); // the older destination has no flush: its writes end
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

const results: Record<string, number[]> = {};
for (const write of Object.values(ways)) await round(write, 20_000); // warm-up (JIT)
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? Object.entries(ways) : Object.entries(ways).reverse();
  for (const [name, write] of order) {
    results[name] ??= [];
    results[name].push(await round(write, 100_000));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(results)) {
  console.log(
    `${name}${name.includes('before') && beforeAt >= 0 ? ` at ${beforeDir}` : ''}: ${median(xs).toFixed(2)} µs CPU per request (rounds ${xs.map((x) => x.toFixed(2)).join(', ')})`,
  );
}

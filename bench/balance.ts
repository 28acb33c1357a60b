/**
 * Benchmark: GET /accounts/balance through the whole stack (TLS, base routing, token check with its
 * credential lookup, balance read) against a bare node:https server answering the same bytes on the
 * same machine. Prints requests/s, latency percentiles and the ratio.
 *
 *   npx tsx bench/balance.ts [--requests 5000] [--concurrency 32]
 *
 * Runs on embedded PGlite by default; set DATABASE_URL to measure on PostgreSQL. Loopback only,
 * bounded by --requests; it stops by itself.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { AUDIENCES, startTestServer } from '../test/harness/server.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '32' } },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);

async function drive(url: string, headers: Record<string, string>, dispatcher: Agent) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t = performance.now();
        const res = await request(url, { headers, dispatcher });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
  return { rps: total / seconds, p50: pct(50), p99: pct(99), failures };
}

const server = await startTestServer(process.env.DATABASE_URL ? { database: 'postgres' } : {});
const account = await server.admin.createAccount({ fund: 1000 });
const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
const path = '/giftcards-sandbox/accounts/balance';
const sample = await server.http.get(path, { token });
const bytes = Buffer.from(sample.text);

const tls = (await import('../src/http/tls.ts')).loadTls;
const { key, cert } = await tls({
  dataDir: (await import('../test/harness/templates.ts')).CACHE_DIR,
  hosts: ['localhost'],
});
const bare = https.createServer({ key, cert }, (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as AddressInfo).port;

const dispatcher = new Agent({ connect: { ca: cert }, connections: concurrency });
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
await drive(`${server.url}${path}`, headers, dispatcher); // warm-up
const airgift = await drive(`${server.url}${path}`, headers, dispatcher);
const baseline = await drive(`https://127.0.0.1:${barePort}${path}`, headers, dispatcher);

const line = (name: string, r: typeof airgift) =>
  `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   failures ${r.failures}`;
console.log(`GET ${path}, ${total} requests, concurrency ${concurrency}, ${server.db.kind}`);
console.log(line('airgift', airgift));
console.log(line('bare node:https', baseline));
console.log(`ratio airgift / bare: ${(airgift.rps / baseline.rps).toFixed(2)}`);

await dispatcher.close();
bare.close();
await server.close();

/**
 * Shared pieces of the benchmarks: start the real server (`src/main.ts`, its own process, a fresh data
 * directory, embedded PGlite or DATABASE_URL), a bare node:https baseline in its own process, and a
 * closed-loop load generator over undici. Loopback only; every run is bounded by its request count.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';

const ROOT = join(import.meta.dirname, '..');

export interface RunningServer {
  url: string;
  ca: string;
  dataDir: string;
  credentials: { clientId: string; clientSecret: string; accountId: number };
  adminKey: string;
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${seen}`)), 60_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => code !== 0 && reject(new Error(`${what} exited with ${code}: ${seen}`)));
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * With DATABASE_URL, the server gets a database of its own on that PostgreSQL server, made for the
 * run and dropped after it, so a benchmark never writes into an existing database.
 */
async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const name = `airgift_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Starts `src/main.ts` on a free port with a fresh data directory and waits for its banner. */
export async function startAirgift(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'airgift-bench-'));
  const database = await benchDatabase();
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...(database && { DATABASE_URL: database.url }),
      DATA_DIR: dataDir,
      PORT: port,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // A benchmark drives one account as hard as it can: measured, not rate limited.
      RATE_LIMIT_TOKEN_REQUESTS: '0',
      RATE_LIMIT_API_REQUESTS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The banner ends with the bootstrap account's token command.
  await waitFor(child, /Get a token/, 'airgift');
  const credentials = JSON.parse(await readFile(join(dataDir, 'sandbox-credentials.json'), 'utf8'));
  return {
    url: `https://127.0.0.1:${port}`,
    ca: await readFile(join(dataDir, 'tls', 'ca.crt'), 'utf8'),
    dataDir,
    credentials,
    adminKey: (await readFile(join(dataDir, 'admin.key'), 'utf8')).trim(),
    async stop() {
      await stopChild(child);
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bare node:https server in its own process answering `body` to every request, with the same TLS key. */
export async function startBaseline(
  dataDir: string,
  body: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const script = `
    const https = require('node:https'); const fs = require('node:fs');
    const body = Buffer.from(process.env.BODY);
    const server = https.createServer({ key: fs.readFileSync(process.env.KEY), cert: fs.readFileSync(process.env.CERT) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('baseline on ' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['-e', script], {
    env: {
      ...process.env,
      BODY: body,
      KEY: join(dataDir, 'tls', 'server.key'),
      CERT: join(dataDir, 'tls', 'server.crt'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitFor(child, /baseline on (\d+)/, 'baseline');
  return { url: `https://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Closed loop: `concurrency` workers send `total` requests in all; latencies in ms. */
export async function drive(
  url: string,
  o: {
    ca: string;
    total: number;
    concurrency: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: () => string;
  },
): Promise<LoadResult> {
  const dispatcher = new Agent({ connect: { ca: o.ca }, connections: o.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (sent < o.total) {
        sent++;
        const t = performance.now();
        const res = await request(url, {
          method: o.method ?? 'GET',
          headers: o.headers,
          body: o.body?.(),
          dispatcher,
        });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { requests: o.total, rps: o.total / seconds, p50: pct(50), p99: pct(99), failures };
}

export function report(name: string, r: LoadResult): string {
  return `${name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   failures ${r.failures}`;
}

/** A sandbox token for the bootstrap account of `server`. */
export async function tokenFor(server: RunningServer, audiencePath: string): Promise<string> {
  const port = new URL(server.url).port;
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const res = await request(`${server.url}/auth/oauth/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: server.credentials.clientId,
      client_secret: server.credentials.clientSecret,
      grant_type: 'client_credentials',
      audience: `https://localhost:${port}${audiencePath}`,
    }),
  });
  const body = (await res.body.json()) as { access_token?: string };
  await dispatcher.close();
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

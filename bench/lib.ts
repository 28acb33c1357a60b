/**
 * Shared pieces of the benchmarks: start the real server (as `npm start` does: the built
 * `dist/main.mjs`, else `src/main.ts` through tsx; its own process, a fresh or
 * given data directory, embedded PGlite or a scratch PostgreSQL database), a bare node:https baseline
 * in its own process, two load generators (wrk for reads, an undici closed loop for writes), pgbench,
 * and the figure table every benchmark prints. Loopback only; every run is bounded in time.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Agent, request } from 'undici';

export const ROOT = join(import.meta.dirname, '..');

/**
 * The checkout whose server (its `dist/main.mjs`, built first, or `src/main.ts`) the benchmarks start: this one, or another (`--compare DIR`
 * measures an older checkout, say the code before a change, side by side with this one).
 */
let serverRoot = ROOT;
export function setServerRoot(dir: string) {
  serverRoot = dir;
}
const run = promisify(execFile);

/** The PostgreSQL server the benchmarks use (a scratch database per run is made and dropped there). */
export const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export interface RunningServer {
  url: string;
  /** The origin the bases are configured with (token audiences start with it). */
  publicUrl: string;
  port: number;
  pid: number;
  ca: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Milliseconds from spawn to the listening banner. */
  startMs: number;
  credentials: { clientId: string; clientSecret: string; accountId: number };
  adminKey: string;
  /** Stops the process only. */
  kill(): Promise<void>;
  /** Stops the process and removes what startAirgift made for it (data dir, scratch database). */
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${seen}`)), 120_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.length > 100_000) seen = seen.slice(-50_000);
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining so a chatty child never blocks on a full pipe.
        if (process.env.BENCH_CHILD_OUTPUT) {
          child.stdout?.pipe(process.stdout);
          child.stderr?.pipe(process.stderr);
        }
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${seen}`));
    });
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** A database of its own on the benchmark PostgreSQL server, made for the run and dropped after it. */
export async function scratchDatabase(
  tag: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `airgift_bench_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface StartOptions {
  /** 'pglite' (default) or 'postgres' (a scratch database), or the URL of an existing database. */
  database?: 'pglite' | 'postgres' | { url: string };
  /** An existing data directory (a restart, or a second process of one deployment). */
  dataDir?: string;
  env?: Record<string, string>;
  /**
   * Where the server's stdout (its log) goes: 'pipe' (default), read and thrown away by this
   * process, as a log collector would; or 'null', /dev/null (then the banner cannot be read: the
   * port is chosen here and the server is ready when `/ready` answers 200).
   */
  stdout?: 'pipe' | 'null';
}

/**
 * The environment variables and node flags of the checkout's `npm start` (its last command, say
 * `MALLOC_ARENA_MAX=2 node --optimize-for-size dist/main.mjs`), so a server runs as `npm start` runs
 * it, each checkout of a `--compare` with its own.
 */
async function startCommand(root: string): Promise<{ env: Record<string, string>; nodeArgs: string[] }> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const last =
    String(manifest.scripts?.start ?? '')
      .split('&&')
      .pop() ?? '';
  const words = last.trim().split(/\s+/);
  const env: Record<string, string> = {};
  const nodeArgs: string[] = [];
  for (const word of words) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment) env[assignment[1]] = assignment[2];
    else if (word.startsWith('--')) nodeArgs.push(word);
  }
  return { env, nodeArgs };
}

/** Starts the server (`dist/main.mjs` after a build, else `src/main.ts`) on a free port and waits for its banner. */
export async function startAirgift(o: StartOptions = {}): Promise<RunningServer> {
  const ownDir = !o.dataDir;
  const dataDir = o.dataDir ?? (await mkdtemp(join(tmpdir(), 'airgift-bench-')));
  const scratch = o.database === 'postgres' ? await scratchDatabase('srv') : null;
  const databaseUrl = scratch?.url ?? (typeof o.database === 'object' ? o.database.url : null);
  const publicUrl = o.env?.PUBLIC_URL ?? 'https://localhost';
  // BENCH_NODE_ARGS: extra node flags for the server (say `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // As `npm start` runs it: the production bundle (scripts/build.mjs), built before the clock starts;
  // an older checkout (--compare) without that build runs its sources through tsx.
  const built = existsSync(join(serverRoot, 'scripts', 'build.mjs'));
  if (built) await run(process.execPath, [join(serverRoot, 'scripts', 'build.mjs')], { cwd: serverRoot });
  const start = built ? await startCommand(serverRoot) : { env: {}, nodeArgs: [] };
  const toNull = o.stdout === 'null';
  const fixedPort = toNull ? await freePort() : 0;
  const started = performance.now();
  const entry = built
    ? [join(serverRoot, 'dist', 'main.mjs')]
    : ['--import', 'tsx', join(serverRoot, 'src', 'main.ts')];
  const child = spawn(process.execPath, [...start.nodeArgs, ...nodeArgs, ...entry], {
    cwd: serverRoot,
    env: {
      ...process.env,
      ...start.env,
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: dataDir,
      PORT: String(fixedPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: publicUrl,
      // A benchmark drives one account as hard as it can: measured, not rate limited.
      RATE_LIMIT_TOKEN_REQUESTS: '0',
      RATE_LIMIT_API_REQUESTS: '0',
      ...o.env,
    },
    stdio: ['ignore', toNull ? 'ignore' : 'pipe', 'pipe'],
  });
  let port: number;
  try {
    // main.ts writes the sandbox credentials before it prints this banner.
    port = toNull
      ? await readyOn(child, fixedPort, dataDir)
      : Number(await waitFor(child, /airgift is listening on port (\d+)/, 'airgift'));
  } catch (error) {
    await stopChild(child);
    await scratch?.drop();
    throw error;
  }
  const startMs = performance.now() - started;
  const credentials = JSON.parse(await readFile(join(dataDir, 'sandbox-credentials.json'), 'utf8'));
  return {
    url: `https://127.0.0.1:${port}`,
    publicUrl,
    port,
    pid: child.pid as number,
    ca: await readFile(join(dataDir, 'tls', 'ca.crt'), 'utf8'),
    dataDir,
    databaseUrl,
    startMs,
    credentials,
    adminKey: (await readFile(join(dataDir, 'admin.key'), 'utf8')).trim(),
    kill: () => stopChild(child),
    async stop() {
      await stopChild(child);
      await scratch?.drop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on right now (the kernel's choice). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Waits for a server whose stdout is not read: ready once its sandbox credentials are written and
 * `/ready` answers 200 (connections made before the app is served wait for it, listener.ts).
 */
async function readyOn(child: ChildProcess, port: number, dataDir: string): Promise<number> {
  const deadline = performance.now() + 120_000;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`airgift exited with ${child.exitCode}: ${stderr}`);
      if (existsSync(join(dataDir, 'sandbox-credentials.json'))) {
        const status = await request(`https://127.0.0.1:${port}/ready`, { dispatcher }).then(
          async (res) => {
            await res.body.dump();
            return res.statusCode;
          },
          () => 0,
        );
        if (status === 200) {
          child.stderr?.resume();
          return port;
        }
      }
      await sleep(200);
    }
    throw new Error(`airgift did not start: ${stderr}`);
  } finally {
    await dispatcher.close();
  }
}

/** Resident memory of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface BaselineAnswer {
  body: string;
  /** The response headers airgift sent (a fresh request id per answer is made like airgift's). */
  headers: Record<string, string>;
}

/**
 * A bare node:https server in its own process with the same TLS key, answering each path with the
 * body and headers recorded for it (a Map lookup; `x-request-id` made new per answer, as airgift
 * does), so it sends the same bytes airgift sends.
 */
export async function startBaseline(
  dataDir: string,
  bodies: Record<string, BaselineAnswer>,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = join(dataDir, `baseline-bodies-${process.pid}.json`);
  await writeFile(file, JSON.stringify(bodies));
  const script = `
    const https = require('node:https'); const fs = require('node:fs');
    const answers = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BODIES, 'utf8'))).map(([k, a]) => [k, { body: Buffer.from(a.body), headers: a.headers }]));
    const fallback = { body: Buffer.from('{}'), headers: { 'content-type': 'application/json; charset=utf-8' } };
    let n = 0;
    const server = https.createServer({ key: fs.readFileSync(process.env.KEY), cert: fs.readFileSync(process.env.CERT) }, (req, res) => {
      const a = answers.get(req.url) ?? fallback;
      const headers = { ...a.headers, 'content-length': a.body.length };
      if ('x-request-id' in headers) headers['x-request-id'] = 'req_' + Date.now().toString(36) + (n++).toString(16).padStart(6, '0');
      res.writeHead(200, headers); res.end(a.body);
    });
    server.listen(0, '127.0.0.1', () => console.log('baseline on ' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));
    setTimeout(() => process.exit(0), 3600000).unref();`;
  const child = spawn(process.execPath, ['-e', script], {
    env: {
      ...process.env,
      BODIES: file,
      KEY: join(dataDir, 'tls', 'server.key'),
      CERT: join(dataDir, 'tls', 'server.crt'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitFor(child, /baseline on (\d+)/, 'baseline');
  return {
    url: `https://127.0.0.1:${port}`,
    pid: child.pid as number,
    async stop() {
      await stopChild(child);
      await rm(file, { force: true });
    },
  };
}

/**
 * The floor of an order (bench/floor-server.mjs) in its own process with the same TLS key:
 * `answer` answers each POST at once, `commit` after a group-committed debit and insert in
 * `databaseUrl`, whose tables `floor_balance` and `floor_orders` the caller made.
 */
export async function startFloor(
  dataDir: string,
  mode: 'answer' | 'commit',
  databaseUrl?: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'floor-server.mjs')], {
    env: {
      ...process.env,
      FLOOR_MODE: mode,
      FLOOR_DATABASE_URL: databaseUrl ?? '',
      KEY: join(dataDir, 'tls', 'server.key'),
      CERT: join(dataDir, 'tls', 'server.crt'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitFor(child, /floor on (\d+)/, 'floor');
  return { url: `https://127.0.0.1:${port}`, pid: child.pid as number, stop: () => stopChild(child) };
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

let wrkChecked: boolean | null = null;
export async function wrkAvailable(): Promise<boolean> {
  if (wrkChecked === null) {
    wrkChecked = await run('wrk', ['--version']).then(
      () => true,
      // `wrk --version` exits 1; Debian's prints "wrk debian/4.1.0 ...".
      (e: { stdout?: string }) => /^wrk /.test(e.stdout ?? ''),
    );
  }
  return wrkChecked;
}

const toMs = (value: string, unit: string) =>
  Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1);

/**
 * GET `url` with wrk (keep-alive, `connections` connections, one thread) for `seconds`. Falls back to
 * the undici closed loop when wrk is not installed.
 */
export async function wrk(
  url: string,
  o: { seconds: number; connections: number; headers?: Record<string, string>; ca: string },
): Promise<LoadResult> {
  if (!(await wrkAvailable())) {
    return drive(url, {
      ca: o.ca,
      total: 1e9,
      durationMs: o.seconds * 1000,
      concurrency: o.connections,
      headers: o.headers,
    });
  }
  const args = ['-t1', `-c${o.connections}`, wrkDuration(o.seconds), '--latency'];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const { stdout } = await run('wrk', args, { timeout: (o.seconds + 30) * 1000 });
  const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? 0);
  const lat = (p: string) => {
    const m = new RegExp(`${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(stdout);
    return m ? toMs(m[1], m[2]) : Number.NaN;
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    requests: num(/(\d+) requests in/),
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: lat('50'),
    p99: lat('99'),
    failures:
      num(/Non-2xx or 3xx responses: (\d+)/) +
      (errors ? errors.slice(1).reduce((s, n) => s + Number(n), 0) : 0),
  };
}

/**
 * Closed loop over undici: `concurrency` workers send requests until `total` are sent or
 * `durationMs` has passed; latencies in ms. `onAnswer` sees every answer (status and body text).
 */
export async function drive(
  url: string,
  o: {
    ca: string;
    total: number;
    durationMs?: number;
    concurrency: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: () => string;
    onAnswer?: (status: number, text: string) => void;
  },
): Promise<LoadResult> {
  const dispatcher = new Agent({ connect: { ca: o.ca, timeout: 60_000 }, connections: o.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  let failures = 0;
  const started = performance.now();
  const until = started + (o.durationMs ?? 3_600_000);
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (sent < o.total && performance.now() < until) {
        sent++;
        const t = performance.now();
        try {
          const res = await request(url, {
            method: o.method ?? 'GET',
            headers: o.headers,
            body: o.body?.(),
            dispatcher,
          });
          const text = await res.body.text();
          if (res.statusCode !== 200) failures++;
          o.onAnswer?.(res.statusCode, text);
        } catch (error) {
          // A connection the loaded machine could not open in time counts as a failure, not a crash.
          failures++;
          o.onAnswer?.(0, String((error as Error).message));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: pct(50),
    p99: pct(99),
    failures,
  };
}

export function report(name: string, r: LoadResult): string {
  return `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   failures ${r.failures}`;
}

/** pgbench's built-in `simple-update` on a scratch database of the benchmark PostgreSQL server. */
export async function pgbench(o: {
  clients: number;
  seconds: number;
}): Promise<{ tps: number; latencyMs: number }> {
  const db = await scratchDatabase('pgbench');
  const u = new URL(db.url);
  const conn = ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres')];
  const env = { ...process.env, ...(u.password && { PGPASSWORD: decodeURIComponent(u.password) }) };
  try {
    await run('pgbench', ['-i', '-q', '-s', '1', ...conn, db.name], { env });
    const { stdout } = await run(
      'pgbench',
      [
        '-n',
        '-b',
        'simple-update',
        '-c',
        String(o.clients),
        '-j',
        '2',
        '-T',
        String(o.seconds),
        ...conn,
        db.name,
      ],
      { env, timeout: (o.seconds + 60) * 1000 },
    );
    return {
      tps: Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0),
      latencyMs: Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? 0),
    };
  } finally {
    await db.drop();
  }
}

/** A sandbox token for `credentials` (default: the bootstrap account of `server`). */
export async function tokenFor(
  server: RunningServer,
  audiencePath: string,
  credentials: { clientId: string; clientSecret: string } = server.credentials,
): Promise<string> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const res = await request(`${server.url}/auth/oauth/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      grant_type: 'client_credentials',
      audience: `${server.publicUrl}${audiencePath}`,
    }),
  });
  const body = (await res.body.json()) as { access_token?: string };
  await dispatcher.close();
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A server whose `GET /admin/metrics` can be read: a started one, or an in-process test server. */
export type MetricsSource = Pick<RunningServer, 'url' | 'ca' | 'adminKey'>;

/** `GET /admin/metrics`' text, over `dispatcher` (a connection kept for polling) or a new one. */
export async function metricsText(server: MetricsSource, dispatcher?: Agent): Promise<string> {
  const own = dispatcher ?? new Agent({ connect: { ca: server.ca } });
  try {
    const res = await request(`${server.url}/admin/metrics`, {
      dispatcher: own,
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    return await res.body.text();
  } finally {
    if (!dispatcher) await own.close();
  }
}

/**
 * The group commit's mean batch so far, from `GET /admin/metrics` (orders run in transactions,
 * divided by the transactions): null from a server without those figures (older code).
 */
export async function batchFigures(
  server: MetricsSource,
): Promise<{ batches: number; orders: number } | null> {
  const text = await metricsText(server);
  const figure = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  const batches = figure('airgift_order_batches_total');
  return Number.isNaN(batches) ? null : { batches, orders: figure('airgift_order_batch_orders_total') };
}

/**
 * Waits until the server's outbox is empty (`airgift_messages_queued` of `GET /admin/metrics`), so
 * that the e-mails of one turn's gift card orders (rendered after it: the outbox yields to a burst)
 * are not counted against the next figure. The seconds waited; null from a server without the
 * figure (older code), which is not waited for. Gives up after `timeoutS`.
 */
export async function outboxDrained(server: RunningServer, timeoutS = 120): Promise<number | null> {
  const started = performance.now();
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  try {
    for (;;) {
      const text = await metricsText(server, dispatcher);
      const queued = [...text.matchAll(/^airgift_messages_queued\{[^}]*\} (\d+)$/gm)];
      if (queued.length === 0) return null;
      const waited = (performance.now() - started) / 1000;
      const empty = queued.every((m) => m[1] === '0');
      if (empty || waited > timeoutS) {
        if (waited > 1)
          console.log(
            `  outbox ${empty ? 'drained' : 'still not empty, not waited for'} after ${waited.toFixed(1)} s`,
          );
        return waited;
      }
      await sleep(250);
    }
  } finally {
    await dispatcher.close();
  }
}

/** One call of the admin API; throws on anything but 200. */
export async function admin<T = any>(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  try {
    const res = await request(`${server.url}/admin${path}`, {
      method: method as 'GET',
      dispatcher,
      headers: {
        authorization: `Bearer ${server.adminKey}`,
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`admin ${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as T;
  } finally {
    await dispatcher.close();
  }
}

/** GET with a token; the body text (for recording what the baseline must send). */
/** A 200 answer's body and the headers it was sent with (less those node:http adds itself). */
export async function fetchAnswer(
  server: RunningServer,
  path: string,
  headers: Record<string, string>,
): Promise<BaselineAnswer> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  try {
    const res = await request(`${server.url}${path}`, { headers, dispatcher });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (typeof value === 'string' && !/^(date|connection|keep-alive|content-length)$/i.test(name))
        sent[name] = value;
    }
    return { body: text, headers: sent };
  } finally {
    await dispatcher.close();
  }
}

/** One measured figure of the goals table. */
export interface Figure {
  figure: string;
  value: string;
  baseline?: string;
  ratio?: number;
  goal: string;
  met?: boolean;
}

export function printFigures(title: string, figures: Figure[]) {
  console.log(`\n== ${title}`);
  for (const f of figures) {
    const ratio = f.ratio === undefined ? '' : `  ratio ${f.ratio.toFixed(2)}×`;
    const vs = f.baseline ? `  vs ${f.baseline}` : '';
    const mark = f.met === undefined ? '' : f.met ? '  [goal met]' : '  [goal NOT met]';
    console.log(`${f.figure}: ${f.value}${vs}${ratio}  (goal ${f.goal})${mark}`);
  }
}

export interface BenchOptions {
  smoke: boolean;
}

export function benchOptions(argv = process.argv.slice(2)): BenchOptions {
  return { smoke: argv.includes('--smoke') || process.env.BENCH_SMOKE === '1' };
}

/** True when `moduleUrl` is the script node was asked to run (a sub-benchmark run alone). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return (
    !!script &&
    new URL(moduleUrl).pathname === (script.startsWith('/') ? script : join(process.cwd(), script))
  );
}

export async function sleep(ms: number) {
  await new Promise((r) => setTimeout(r, ms));
}

/** wrk's `-d`: whole seconds only (it refuses `0.5s` and prints its usage), at least one. */
export function wrkDuration(seconds: number): string {
  return `-d${Math.max(1, Math.round(seconds))}s`;
}

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, type Answer } from './server.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { CACHE_DIR } from './templates.ts';

/**
 * Two real airgift processes, each on its own PostgreSQL database (or, `embedded`, its own PGlite in its
 * DATA_DIR), the second buying from the first:
 * the upstream (its sandbox base serves an account of the reseller there) and the reseller (its
 * upstream for `product` set with the CLI, `airgift upstream set`), with a real TCP proxy between
 * them (tcp-proxy.ts) that can hold the upstream's answers or everything. The upstream's public URL
 * is the proxy's, so the tokens it issues name the address the reseller calls. Both processes start
 * at once; the upstream is configured while the reseller's live customer is made.
 *
 * @example
 * const pair = await startResellerPair({ product: 'giftcards', resellerEnv: { FULFILMENT_POLL_MS: '200' } });
 * await pair.reseller.http.post('/giftcards/orders', body, { token: pair.liveToken });
 * await pair.stop();
 */
export const CA_FILE = join(CACHE_DIR, 'tls', 'ca.crt');
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
const run = promisify(execFile);

export interface ResellerPairOptions {
  product: 'giftcards' | 'topups';
  upstreamEnv?: Record<string, string>;
  resellerEnv?: Record<string, string>;
  /** More options of `airgift upstream set` (`--margin-percent 2`). */
  setArgs?: string[];
  /** Both processes on the embedded database (PGlite, as `npm start` runs) instead of PostgreSQL. */
  embedded?: boolean;
}

export interface ResellerPair {
  /** The upstream process now serving (a new one after `restartUpstream`). */
  readonly upstream: ServerProcess;
  reseller: ServerProcess;
  proxy: TcpProxy;
  /** https://localhost:<proxy port>: the upstream's public URL, as the reseller reaches it. */
  upstreamBase: string;
  /** The reseller's sandbox account at the upstream, and a token of it for the upstream's sandbox base. */
  atUpstream: { accountId: number; clientId: string; clientSecret: string };
  upstreamToken: string;
  /** What `airgift upstream set ... --json` printed (the settings and the live balance). */
  setOutput: any;
  /** A live customer of the reseller (1000 USD) and its token for the product's live base. */
  liveAccountId: number;
  liveToken: string;
  /** `airgift ...` against the reseller, with its admin key and the suite's CA. */
  airgift(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** The admin API of either process, with the admin key. */
  admin(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer>;
  /** Starts a new upstream process on the first one's database and DATA_DIR, and points the proxy at it. */
  restartUpstream(): Promise<ServerProcess>;
  /** Ends every process it started (by pid) and the proxy; drops their databases. */
  stop(): Promise<void>;
}

const portOf = (server: ServerProcess) => Number(new URL(server.url).port);

/**
 * Both processes poll often, so that the cases wait on their workers as little as possible: the gift
 * card and top-up workers every 200 ms, an order PROCESSING at the upstream (or unknown there) asked
 * about again after 500 ms instead of 3 s. A suite's own env overrides any of them.
 */
const FAST_WORKERS = {
  FULFILMENT_POLL_MS: '200',
  TOPUP_WORKER_INTERVAL_MS: '200',
  UPSTREAM_RECHECK_MS: '500',
};

export async function startResellerPair(options: ResellerPairOptions): Promise<ResellerPair> {
  const { product } = options;
  const proxy = await startTcpProxy();
  const upstreamBase = `https://localhost:${proxy.port}`;
  const upstreamEnv = { ...FAST_WORKERS, PUBLIC_URL: upstreamBase, ...options.upstreamEnv };
  const storage = options.embedded ? { database: 'pglite' as const } : {};
  const started = await Promise.allSettled([
    startServerProcess(upstreamEnv, undefined, storage),
    startServerProcess({ ...FAST_WORKERS, ...options.resellerEnv }, undefined, storage),
  ]);
  const [first, reseller] = started.map((s) => (s.status === 'fulfilled' ? s.value : null));
  const upstreams: ServerProcess[] = first ? [first] : [];
  const stop = async () => {
    // the restarted ones first: the first upstream's cleanup drops the database they share
    for (const s of [...upstreams].reverse()) await s.cleanup();
    await reseller?.cleanup();
    await proxy.close();
  };
  if (!first || !reseller) {
    await stop();
    throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
  }
  proxy.setTarget(portOf(first));

  const admin = (server: ServerProcess, method: string, path: string, body?: unknown) =>
    server.http.call(method, `/admin${path}`, { token: ADMIN_KEY, body });
  const must = <T extends { status: number; text: string }>(a: T, what: string): T => {
    if (a.status !== 200) throw new Error(`${what}: ${a.status} ${a.text}`);
    return a;
  };
  const airgift = (...args: string[]) =>
    run(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        AIRGIFT_URL: reseller.url,
        AIRGIFT_ADMIN_KEY: ADMIN_KEY,
        AIRGIFT_CA_FILE: CA_FILE,
      },
    });
  const account = (server: ServerProcess, environment: 'live' | 'sandbox', name: string) =>
    admin(server, 'POST', '/accounts', {
      name,
      currency: 'USD',
      country: 'US',
      environment,
      fund: 1000,
    }).then((a) => must(a, `create the ${name}`).body);
  const token = async (server: ServerProcess, clientId: string, clientSecret: string, audience: string) => {
    const a = await server.http.post('/auth/oauth/token', {
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
      audience,
    });
    return must(a, `token for ${audience}`).body.access_token as string;
  };

  try {
    const [upstreamSide, live] = await Promise.all([
      (async () => {
        const atUpstream = await account(first, 'sandbox', 'reseller at the upstream');
        const { stdout } = await airgift(
          ...['upstream', 'set', product, '--url', `${upstreamBase}/${product}-sandbox`],
          ...['--auth-url', `${upstreamBase}/auth`, '--client-id', atUpstream.clientId],
          ...['--client-secret', atUpstream.clientSecret, '--ca-file', CA_FILE],
          ...(options.setArgs ?? []),
          '--json',
        );
        const upstreamToken = await token(
          first,
          atUpstream.clientId,
          atUpstream.clientSecret,
          `${upstreamBase}/${product}-sandbox`,
        );
        return { atUpstream, upstreamToken, setOutput: JSON.parse(stdout) };
      })(),
      (async () => {
        const customer = await account(reseller, 'live', 'live customer');
        const liveToken = await token(
          reseller,
          customer.clientId,
          customer.clientSecret,
          `https://localhost/${product}`,
        );
        return { liveAccountId: customer.accountId as number, liveToken };
      })(),
    ]);
    return {
      get upstream() {
        return upstreams[upstreams.length - 1];
      },
      reseller,
      proxy,
      upstreamBase,
      ...upstreamSide,
      ...live,
      airgift,
      admin,
      async restartUpstream() {
        const next = await startServerProcess(upstreamEnv, first);
        upstreams.push(next);
        proxy.setTarget(portOf(next));
        return next;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

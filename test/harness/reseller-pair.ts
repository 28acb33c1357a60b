import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { airgiftCli } from './cli.ts';
import { type Answer, CA_FILE, PRODUCT_ACCEPT } from './client.ts';
import { postgresForTests } from './server.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { until } from './until.ts';

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
  /** The upstream's transactions carrying the customIdentifier the reseller derives for its order `id`. */
  atUpstreamFor(id: number): Promise<any[]>;
  /** The reseller's balance at the upstream (its sandbox account there). */
  upstreamBalance(): Promise<number>;
  /** The live customer's balance at the reseller. */
  resellerBalance(): Promise<number>;
  /** The live customer's transaction of `customIdentifier` in the reseller's reports (undefined before it). */
  resellerTransactionBy(customIdentifier: string): Promise<any>;
  /** Takes the reseller's balance at the upstream down to `left` USD (an adjustment by the upstream's admin). */
  drainUpstream(left: number): Promise<void>;
  /** Funds the reseller's account at the upstream with `amount` USD. */
  fundUpstream(amount: number): Promise<void>;
  /** The product's upstream as the reseller's `airgift upstream show --json` shows it. */
  upstreamShown(): Promise<any>;
  /** Fails unless both processes' ledger audits find every balance equal to its entries. */
  assertAudits(): Promise<void>;
  /**
   * The upstream killed (SIGKILL) once it holds the reseller's order `id` while the proxy holds its
   * answer: `pending` (the reseller's call) then answers 200 PROCESSING, the outcome unknown; a new
   * upstream process starts on the same database and the proxy lets answers through again.
   */
  killUpstreamMidOrder(id: number, pending: Promise<Answer>): Promise<ServerProcess>;
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

  const airgift = airgiftCli(reseller.url);
  const account = (server: ServerProcess, environment: 'live' | 'sandbox', name: string) =>
    server.admin.createAccount({ name, environment });
  const token = (
    server: ServerProcess,
    account: { clientId: string; clientSecret: string },
    audience: string,
  ) => server.admin.token(account, audience);

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
        const upstreamToken = await token(first, atUpstream, `${upstreamBase}/${product}-sandbox`);
        return { atUpstream, upstreamToken, setOutput: JSON.parse(stdout) };
      })(),
      (async () => {
        const customer = await account(reseller, 'live', 'live customer');
        const liveToken = await token(reseller, customer, `https://localhost/${product}`);
        return { liveAccountId: customer.accountId as number, liveToken };
      })(),
    ]);
    const headers = { accept: PRODUCT_ACCEPT[product] };
    const current = () => upstreams[upstreams.length - 1];
    const upstreamGet = (path: string) =>
      current().http.get(`/${product}-sandbox${path}`, { token: upstreamSide.upstreamToken, headers });
    const resellerGet = (path: string) =>
      reseller.http.get(`/${product}${path}`, { token: live.liveToken, headers });
    // the product's transaction reports, by customIdentifier: top-ups' are paged in `content`
    const reportsBy = async (get: typeof upstreamGet, customIdentifier: string) => {
      const reports = product === 'topups' ? '/topups/reports/transactions' : '/reports/transactions';
      const a = await get(`${reports}?customIdentifier=${customIdentifier}`);
      assert.equal(a.status, 200, a.text);
      return (product === 'topups' ? a.body.content : a.body) as any[];
    };
    const atUpstreamFor = (id: number) => reportsBy(upstreamGet, `ag-live-${id}`);
    const upstreamBalance = async (): Promise<number> =>
      (await upstreamGet('/accounts/balance')).body.balance;
    const restartUpstream = async () => {
      const next = await startServerProcess(upstreamEnv, first);
      upstreams.push(next);
      proxy.setTarget(portOf(next));
      return next;
    };
    return {
      get upstream() {
        return current();
      },
      reseller,
      proxy,
      upstreamBase,
      ...upstreamSide,
      ...live,
      airgift,
      atUpstreamFor,
      upstreamBalance,
      resellerBalance: async () => (await resellerGet('/accounts/balance')).body.balance,
      resellerTransactionBy: async (customIdentifier) => (await reportsBy(resellerGet, customIdentifier))[0],
      async drainUpstream(left) {
        const drained = await current().admin.call(
          'POST',
          `/accounts/${upstreamSide.atUpstream.accountId}/adjust`,
          {
            environment: 'sandbox',
            amount: -((await upstreamBalance()) - left),
            reason: `test: leave ${left} USD`,
          },
        );
        assert.equal(drained.status, 200, drained.text);
      },
      async fundUpstream(amount) {
        const funded = await current().admin.call(
          'POST',
          `/accounts/${upstreamSide.atUpstream.accountId}/fund`,
          {
            environment: 'sandbox',
            amount,
            reason: 'test: funded again',
          },
        );
        assert.equal(funded.status, 200, funded.text);
      },
      async upstreamShown() {
        const { items } = JSON.parse((await airgift('upstream', 'show', '--json')).stdout);
        return items.find((u: any) => u.product === product);
      },
      async assertAudits() {
        await reseller.assertLedgerAudit({ balancesOnly: true, what: 'ledger audit of the reseller' });
        await current().assertLedgerAudit({ balancesOnly: true, what: 'ledger audit of the upstream' });
      },
      async killUpstreamMidOrder(id, pending) {
        await until('the upstream transaction', async () => (await atUpstreamFor(id)).length === 1);
        current().child.kill('SIGKILL');
        await current().exited;
        const answered = await pending;
        assert.equal(answered.status, 200, answered.text);
        assert.equal(answered.body.status, 'PROCESSING', 'outcome unknown: kept PROCESSING');
        const next = await restartUpstream();
        proxy.resume();
        return next;
      },
      restartUpstream,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A reseller pair for a whole test file: started before its tests when PostgreSQL is reachable, then
 * `ready(pair)` (the suite takes what it keeps of it), stopped after them. `skip` is the tests' option.
 *
 * @example
 * let reseller: ServerProcess;
 * const { skip } = await resellerPairForSuite({ product: 'topups' }, (pair) => ({ reseller } = pair));
 */
export async function resellerPairForSuite(
  options: ResellerPairOptions,
  ready: (pair: ResellerPair) => void | Promise<void>,
) {
  const pg = await postgresForTests();
  let pair: ResellerPair | undefined;
  before(async () => {
    if (!pg) return;
    pair = await startResellerPair(options);
    await ready(pair);
  });
  after(() => pair?.stop());
  return { skip: !pg && 'PostgreSQL not reachable' };
}

/**
 * A reseller order placed while the proxy holds everything (`stall('both')`): answered 200 PROCESSING
 * once the reseller's UPSTREAM_TIMEOUT_SECONDS (2 in these suites) have passed. The proxy still holds:
 * the suite resumes it when it has looked at the upstream.
 */
export async function placedWhileStalled(pair: ResellerPair, place: () => Promise<Answer>) {
  pair.proxy.stall('both');
  const started = Date.now();
  const a = await place();
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.ok(Date.now() - started >= 1900, 'answered after UPSTREAM_TIMEOUT_SECONDS');
  return a;
}

/**
 * Both products' case of an upstream whose balance runs out (drained to 1 USD): the reseller's order
 * `place('broke-1')` is refused with 503 and refunded at once, the upstream took nothing, `airgift
 * upstream show` flags the balance and the reseller's log warns of it; funded again, `place('broke-2')`
 * succeeds and the flag clears. Both ledger audits hold.
 */
export async function upstreamBalanceRunsOut(
  pair: ResellerPair,
  place: (customIdentifier: string) => Promise<Answer>,
) {
  await pair.drainUpstream(1);
  const resellerBefore = await pair.resellerBalance();

  const refused = await place('broke-1');
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  const t = await pair.resellerTransactionBy('broke-1');
  assert.equal(t.status, 'REFUNDED');
  assert.equal(await pair.resellerBalance(), resellerBefore, 'nothing kept');
  assert.equal((await pair.atUpstreamFor(t.transactionId)).length, 0, 'the upstream took nothing');
  const shown = await pair.upstreamShown();
  assert.equal(shown.health.insufficientBalance, true);
  assert.equal(shown.balance.balance, 1);
  const warning = new RegExp(`upstream ${shown.product}: the upstream's balance`);
  await until('the warning in the log', async () => warning.test(pair.reseller.output()));

  // funded again: the next order is taken and the flag clears
  await pair.fundUpstream(500);
  const ok = await place('broke-2');
  assert.equal(ok.body.status, 'SUCCESSFUL', ok.text);
  const again = await pair.upstreamShown();
  assert.equal(again.health.insufficientBalance, false);
  await pair.assertAudits();
}

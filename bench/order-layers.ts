/**
 * A gift card order's server CPU taken apart by layer, in ONE process on PostgreSQL, each layer
 * measured in 5 s rounds whose order alternates, medians of the rounds (the process's own
 * utime + stime per order answered). Not in `npm run bench`:
 *
 *   npx tsx bench/order-layers.ts [rounds]        (default 4; needs PostgreSQL and wrk)
 *
 * The app is the production app and services in this process (test/harness/server.ts, logging
 * off, no rate limit), beside a bare `node:https` server on the same TLS key that calls the same
 * order service. The layers:
 *
 *   place64   the order service's `place` alone, 64 callers in a loop (no HTTP): batches of 64
 *   place24   the same, 24 callers: batches of ~24, as the HTTP runs below make
 *   answer    the bare server: read the POST, parse its JSON, answer an order's view kept from before
 *             (what HTTPS and JSON cost a request, without an order)
 *   bare      the bare server: read the POST, parse its JSON, `place` it, answer its view
 *   app       the airgift app: POST /giftcards-sandbox/orders through Fastify and every hook
 *
 * `BENCH_LAYER_PROFILE=<layer>` writes a CPU profile of that layer's measured rounds to
 * `order-layers-<layer>.cpuprofile` in the system's temporary directory (a sample every 250 µs);
 * `BENCH_LAYER_HEAP=<layer>` writes `order-layers-<layer>.heapprofile` instead: the allocations of
 * those rounds, sampled every 4 KiB, those the garbage collector took back included (what an order
 * allocates, not what it keeps), and prints the bytes allocated per order by function.
 *
 * The HTTP layers are driven by wrk with orders.lua (64 connections, its own process: its CPU is
 * not counted here). Orders per batch are printed for each round (the group commit's counters).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTls } from '../src/http/tls.ts';
import type { Principal } from '../src/modules/auth/index.ts';
import { ADMIN_KEY, caPem } from '../test/harness/client.ts';
import { startTestServer } from '../test/harness/server.ts';
import { CACHE_DIR } from '../test/harness/templates.ts';
import { median } from './cpu-per-order.ts';
import { allocationSites, type HeapProfileNode, printSites } from './heap-profile.ts';
import { batchFigures, isMain, postgresAvailable, wrkAvailable } from './lib.ts';
import { runOrdersLua } from './orders.ts';

const LAYERS = ['place64', 'place24', 'answer', 'bare', 'app'] as const;
type Layer = (typeof LAYERS)[number];
const ROUND_MS = 5_000;
const BASE_URL = 'https://localhost/giftcards-sandbox';

export async function orderLayers(rounds = 4): Promise<Record<Layer, number>> {
  const server = await startTestServer({
    database: 'postgres',
    env: { RATE_LIMIT_TOKEN_REQUESTS: '0', RATE_LIMIT_API_REQUESTS: '0' },
  });
  let bare: Server | undefined;
  // wrk's files of the customIdentifiers answered (orders.lua), removed at the end
  const answersDir = await mkdtemp(join(tmpdir(), 'airgift-layers-'));
  try {
    const account = await server.admin.createAccount({ fund: 1_000_000_000 });
    const principal: Principal = {
      accountId: account.accountId,
      environment: 'sandbox',
      clientId: account.clientId,
      scopes: [],
    };
    const token = await server.admin.token(account, BASE_URL);
    const orders = server.runtime.services.giftcards.orders;
    let sequence = 0;
    const body = () => ({
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'Bench',
      customIdentifier: `layers-${++sequence}`,
    });
    // The bare server: `keptView` set, it answers that view without an order ("answer").
    let keptView: string | null = null;
    const tls = await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
    bare = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        try {
          const order = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const text = keptView ?? JSON.stringify(await orders.place(principal, order, BASE_URL));
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
          });
          res.end(text);
        } catch (error) {
          res.writeHead(500).end(String(error));
        }
      });
    });
    await new Promise<void>((resolve) => bare?.listen(0, '127.0.0.1', resolve));
    const bareUrl = `https://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    const metrics = { url: server.url, ca: caPem(), adminKey: ADMIN_KEY };
    const batchCounters = async () => {
      const figures = await batchFigures(metrics);
      if (!figures) throw new Error('the server counts no batches');
      return figures;
    };
    let wrkRuns = 0;
    /** One round of a layer: the orders answered. */
    const run = async (layer: Layer, ms: number): Promise<number> => {
      if (layer === 'place64' || layer === 'place24') {
        const end = Date.now() + ms;
        let placed = 0;
        const callers = layer === 'place64' ? 64 : 24;
        await Promise.all(
          Array.from({ length: callers }, async () => {
            for (; Date.now() < end; placed++) await orders.place(principal, body(), BASE_URL);
          }),
        );
        return placed;
      }
      keptView = layer === 'answer' ? JSON.stringify(await orders.place(principal, body(), BASE_URL)) : null;
      const { threads } = await runOrdersLua(layer === 'app' ? server.url : bareUrl, {
        kind: 'giftcards',
        prefix: `layers-${layer}-${++wrkRuns}`,
        token,
        answers: join(answersDir, 'answered'),
        phoneOffset: 0,
        seconds: ms / 1000,
        clients: 64,
      });
      const refused = threads.filter((t) => t[5] !== '');
      if (refused.length > 0)
        throw new Error(`${layer}: answers other than 200: ${refused.map((t) => t[5])}`);
      return threads.reduce((sum, t) => sum + Number(t[4]), 0);
    };

    for (const layer of LAYERS) await run(layer, 2_000); // warm-up
    const heap = process.env.BENCH_LAYER_HEAP as Layer | undefined;
    const profiled = heap ?? (process.env.BENCH_LAYER_PROFILE as Layer | undefined);
    const profiler = profiled ? layerProfiler(heap ? 'heap' : 'cpu') : null;
    let profiledOrders = 0;
    const perOrder = Object.fromEntries(LAYERS.map((l) => [l, [] as number[]])) as Record<Layer, number[]>;
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? LAYERS : [...LAYERS].reverse();
      for (const layer of order) {
        const before = await batchCounters();
        if (layer === profiled) await profiler?.resume();
        const cpu = process.cpuUsage();
        const started = performance.now();
        const answered = await run(layer, ROUND_MS);
        const used = process.cpuUsage(cpu);
        const seconds = (performance.now() - started) / 1000;
        if (layer === profiled) {
          await profiler?.pause();
          profiledOrders = answered;
        }
        const after = await batchCounters();
        const perBatch =
          layer === 'answer'
            ? '—'
            : ((after.orders - before.orders) / (after.batches - before.batches)).toFixed(1);
        const cpuPerOrder = (used.user + used.system) / answered;
        perOrder[layer].push(cpuPerOrder);
        console.log(
          `round ${round + 1} ${layer.padEnd(7)} ${String(Math.round(answered / seconds)).padStart(6)}/s  ` +
            `CPU ${cpuPerOrder.toFixed(0)} µs per order ` +
            `(user ${(used.user / answered).toFixed(0)}, system ${(used.system / answered).toFixed(0)}), orders/batch ${perBatch}`,
        );
      }
    }
    if (profiled && profiler)
      console.log(`profile of ${profiled}: ${await profiler.save(profiled, profiledOrders)}`);
    const medians = Object.fromEntries(LAYERS.map((l) => [l, median(perOrder[l])])) as Record<Layer, number>;
    console.log(
      `\nmedians of ${rounds} rounds, CPU per order: ${LAYERS.map((l) => `${l} ${medians[l].toFixed(0)} µs`).join(', ')}`,
    );
    console.log(
      `so: an order's own work ${medians.place24.toFixed(0)} µs at the HTTP runs' batch size; HTTPS and JSON ${medians.answer.toFixed(0)} µs; ` +
        `the two together ${medians.bare.toFixed(0)} µs (${(medians.bare - medians.place24 - medians.answer).toFixed(0)} µs beyond their sum); ` +
        `Fastify and airgift's hooks ${(medians.app - medians.bare).toFixed(0)} µs more`,
    );
    return medians;
  } finally {
    await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
    await server.close();
    await rm(answersDir, { recursive: true, force: true });
  }
}

/**
 * The inspector's sampling profiler of this process (CPU, or the heap's allocations), on only
 * between `resume` and `pause` (one measured round of the chosen layer); `save` writes the last
 * round's profile (the rounds are alike).
 */
function layerProfiler(kind: 'cpu' | 'heap') {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  let last: unknown = null;
  return {
    async resume() {
      if (kind === 'heap') {
        await post('HeapProfiler.enable');
        await post('HeapProfiler.startSampling', {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        });
        return;
      }
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 250 });
      await post('Profiler.start');
    },
    async pause() {
      last =
        kind === 'heap'
          ? ((await post('HeapProfiler.stopSampling')) as { profile: unknown }).profile
          : ((await post('Profiler.stop')) as { profile: unknown }).profile;
    },
    async save(layer: Layer, orders: number) {
      const file = join(tmpdir(), `order-layers-${layer}.${kind === 'heap' ? 'heapprofile' : 'cpuprofile'}`);
      writeFileSync(file, JSON.stringify(last));
      session.disconnect();
      if (kind === 'heap') printAllocations(last as HeapProfileNode | { head: HeapProfileNode }, orders);
      return file;
    },
  };
}

/** Bytes allocated per order, by the function that allocated them (self), the largest first. */
function printAllocations(profile: HeapProfileNode | { head: HeapProfileNode }, orders: number) {
  const { sites, total } = allocationSites('head' in profile ? profile.head : profile);
  console.log(`allocated: ${(total / orders / 1024).toFixed(1)} KiB per order (${orders} orders)`);
  printSites(sites, orders, 40);
}

if (isMain(import.meta.url)) {
  if (!(await postgresAvailable()) || !(await wrkAvailable())) {
    console.log('order-layers: needs PostgreSQL and wrk; skipped');
  } else {
    await orderLayers(Number(process.argv[2] ?? 4));
  }
}

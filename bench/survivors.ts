/**
 * What survives V8's young collections, per request, by allocation site: one airgift server with
 * `bench/survivors.mjs` loaded, a warm-up, then 5 s of load sampled. What survives is promoted to the
 * old generation (or was allocated there: pretenured), where only full collections free it; a
 * request's objects that die young cost almost nothing. This found a Set of responses that made every
 * request survive and the request log's and the database driver's pretenured objects (bench/README.md,
 * 2026-11-28). Not in `npm run bench`:
 *
 *   npx tsx bench/survivors.ts [what] [postgres|pglite] [sites]
 *
 * `what`: a name of catalog.ts's reads (default balance), or `giftcards` / `topups` (orders.ts's
 * load, 64 clients). `sites`: how many allocation sites to print (default 25), each with its four
 * innermost frames. BENCH_NODE_ARGS adds node flags to the server (say --no-allocation-site-pretenuring).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG_READS, readTargets } from './catalog.ts';
import { allocationSites, type HeapProfileNode, printSites } from './heap-profile.ts';
import { isMain, startAirgift, wrk } from './lib.ts';
import { benchAccount, orderLoad } from './orders.ts';

const SECONDS = 5;

async function profileFile(path: string): Promise<HeapProfileNode> {
  for (let i = 0; i < 100; i++) {
    try {
      return (JSON.parse(readFileSync(path, 'utf8')) as { head: HeapProfileNode }).head;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`survivors: no profile at ${path}`);
}

export async function survivors(what = 'balance', database: 'postgres' | 'pglite' = 'postgres', shown = 25) {
  const orders = what === 'giftcards' || what === 'topups';
  if (!orders && !CATALOG_READS.some(([n]) => n === what)) throw new Error(`unknown read ${what}`);
  const dir = await mkdtemp(join(tmpdir(), 'airgift-survivors-'));
  process.env.BENCH_SURVIVORS_DIR = dir;
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --import ${join(import.meta.dirname, 'survivors.mjs')}`;
  const server = await startAirgift({ database });
  try {
    let load: (seconds: number) => Promise<number>;
    if (orders) {
      const account = await benchAccount(server);
      load = async (seconds) => {
        const r = await orderLoad(server, what, { seconds, clients: 64, account });
        return r.load.rps * seconds;
      };
    } else {
      const target = (await readTargets(server)).find((t) => t.name === what)!;
      load = async (seconds) =>
        (
          await wrk(`${server.url}${target.path}`, {
            seconds,
            connections: 32,
            headers: target.headers,
            ca: server.ca,
          })
        ).requests;
    }
    await load(3); // warm-up
    process.kill(server.pid, 'SIGUSR2');
    const requests = await load(SECONDS);
    process.kill(server.pid, 'SIGUSR2');
    const { sites, total } = allocationSites(await profileFile(join(dir, `heap-${server.pid}.json`)), 4);
    console.log(
      `${what} (${database}): ${Math.round(requests)} ${orders ? 'orders' : 'requests'} in ${SECONDS} s; ` +
        `surviving young collections: ${(total / requests).toFixed(0)} B per ${orders ? 'order' : 'request'} (sampled)`,
    );
    printSites(sites, requests, shown);
    return total / requests;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  await survivors(
    process.argv[2],
    process.argv[3] === 'pglite' ? 'pglite' : 'postgres',
    Number(process.argv[4] ?? 25),
  );
}

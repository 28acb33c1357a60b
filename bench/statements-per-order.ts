/**
 * Statements per order: the server's node-postgres statements counted by text (`count-statements.mjs`
 * loaded into it) over a run of gift card orders or top-ups on one account, 64 clients (BENCH_CLIENTS
 * sets another number for the measured run: 1, every order alone), PostgreSQL,
 * with the work the orders leave behind (the recipients' e-mails) given 3 s to finish. A count, not a
 * timing: it does not move with the machine's load (batch sizes do, so per batch it does a little).
 *
 *   tsx bench/statements-per-order.ts [giftcards|topups] [seconds]
 *   BENCH_SERVER_ROOT=../before tsx bench/statements-per-order.ts   # another checkout's server
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setServerRoot, sleep, startAirgift } from './lib.ts';
import { benchAccount, orderLoad } from './orders.ts';

const kind = (process.argv[2] ?? 'giftcards') as 'giftcards' | 'topups';
const seconds = Number(process.argv[3] ?? 6);
const clients = Number(process.env.BENCH_CLIENTS ?? 64);
// the server's counts are written here; the folder is removed at the end
const dir = await mkdtemp(join(tmpdir(), 'airgift-statements-'));
const file = join(dir, 'counts.json');
process.env.BENCH_STATEMENTS_FILE = file;
process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --import ${join(import.meta.dirname, 'count-statements.mjs')}`;
if (process.env.BENCH_SERVER_ROOT) setServerRoot(process.env.BENCH_SERVER_ROOT);
const server = await startAirgift({ database: 'postgres' });
try {
  const account = await benchAccount(server);
  await orderLoad(server, kind, { seconds: 2, clients: 64, account }); // warm-up
  await sleep(3000);
  process.kill(server.pid, 'SIGUSR2'); // from here on
  const res = await orderLoad(server, kind, { seconds, clients, account });
  await sleep(3000);
  process.kill(server.pid, 'SIGUSR2');
  await sleep(300);
  const counts = JSON.parse(readFileSync(file, 'utf8')) as Array<[string, number]>;
  const orders = Math.round(res.load.rps * seconds);
  const total = counts.reduce((a, [, n]) => a + n, 0);
  console.log(`${kind}: ~${orders} orders, ${total} statements, ${(total / orders).toFixed(2)} per order`);
  for (const [text, n] of counts.slice(0, 20))
    console.log(`${(n / orders).toFixed(3).padStart(7)}  ${n}  ${text}`);
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}

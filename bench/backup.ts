/**
 * How long a backup holds the embedded database, per 100k orders (docs/operations.md quotes it), and
 * what the file and the restores cost. Not part of `npm run bench`: run it alone,
 *
 *   npx tsx bench/backup.ts [--orders=100000]
 *
 * An installation on PGlite on disk, as `npm start` makes it, gets 200 real orders through the API
 * (gift cards of 1-3 cards and top-ups, a webhook endpoint hearing of all of them); SQL then copies
 * them until `--orders` (their outbox events written by the triggers, as orders write them). Then
 * the admin API's backup runs while a probe reads the database every 5 ms: the longest wait of the
 * probe is what any request needing the database waited. Then the file is restored into a new
 * DATA_DIR and, when PostgreSQL answers, into a scratch database.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { fromPGlite } from '../src/db/database.ts';
import { openPglite } from '../src/db/pglite.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createBackupService } from '../src/modules/backup/index.ts';
import { restoreBackup } from '../src/modules/backup/restore.ts';
import { openRuntime } from '../src/runtime.ts';
import { PG_URL, postgresAvailable } from './lib.ts';

const ORDERS = Number(
  /^--orders=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--orders=')) ?? '')?.[1] ?? 100_000,
);
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const HOST = 'api.airgift.test';
const work = await mkdtemp(join(tmpdir(), 'airgift-bench-backup-'));
const dataDir = join(work, 'source');
const config = loadConfig({
  PUBLIC_URL: `https://${HOST}`,
  DATA_DIR: dataDir,
  ADMIN_KEY,
  LOG_LEVEL: 'silent',
  BOOTSTRAP_SANDBOX_ACCOUNT: 'false',
  TRUSTED_PROXIES: '127.0.0.1',
  RATE_LIMIT_API_REQUESTS: '0',
  WEBHOOK_POLL_MS: '3600000',
});
await mkdir(dataDir, { recursive: true });
const db = fromPGlite(await openPglite(join(dataDir, 'pgdata'), { sharedBuffers: '16MB' }));
const runtime = await openRuntime(config, systemClock, db);
const app = await buildApp({ config, bases: runtime.bases, services: runtime.services, adminKey: ADMIN_KEY });

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const answer = await app.inject({
    method: method as 'GET',
    url,
    headers: { host: HOST, 'x-forwarded-proto': 'https', 'content-type': 'application/json', ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
  return answer.json();
}
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const account = await call('POST', '/admin/accounts', admin, {
  name: 'bench',
  currency: 'USD',
  country: 'US',
  environment: 'sandbox',
  fund: 100_000_000,
});
await call('POST', '/admin/webhooks', admin, {
  accountId: account.accountId,
  environment: 'sandbox',
  url: 'https://hooks.example.com/airgift',
  events: ['*'],
});
const token = async (audience: string) =>
  (
    await call(
      'POST',
      '/auth/oauth/token',
      {},
      {
        client_id: account.clientId,
        client_secret: account.clientSecret,
        grant_type: 'client_credentials',
        audience,
      },
    )
  ).access_token;
const giftcards = {
  authorization: `Bearer ${await token(`https://${HOST}/giftcards-sandbox`)}`,
  accept: 'application/json',
};
const topups = {
  authorization: `Bearer ${await token(`https://${HOST}/topups-sandbox`)}`,
  accept: 'application/json',
};
for (let n = 0; n < 100; n++) {
  await call('POST', '/giftcards-sandbox/orders', giftcards, {
    productId: 11,
    quantity: 1 + (n % 3),
    unitPrice: 10,
    senderName: 'Bench',
    recipientEmail: 'bench@example.com',
    customIdentifier: `seed-${n}`,
  });
  await call('POST', '/topups-sandbox/topups', topups, {
    operatorId: 1001,
    amount: 5,
    recipientPhone: { countryCode: 'NG', number: `0803${String(1_000_000 + n).slice(-7)}` },
    customIdentifier: `seed-${n}`,
  });
}

// Copies of the 200 real orders, each copy with its own ids and references; the transactions'
// INSERT triggers write their outbox events and deliveries as the orders' own statements did.
const copies = Math.ceil(ORDERS / 200) - 1;
const t0 = performance.now();
for (let k = 1; k <= copies; k++) {
  const shift = (table: string, extra: string) =>
    sql.raw(
      `INSERT INTO ${table} SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(t) || ${extra})).* FROM ${table} t WHERE ${table === 'giftcard_cards' ? 'transaction_id' : 'id'} < 1000000`,
    );
  await db.kysely.transaction().execute(async (trx) => {
    await shift(
      'giftcard_transactions',
      `jsonb_build_object('id', t.id + ${k * 1_000_000}, 'custom_identifier', t.custom_identifier || '-${k}')`,
    ).execute(trx);
    await shift(
      'giftcard_cards',
      `jsonb_build_object('transaction_id', t.transaction_id + ${k * 1_000_000})`,
    ).execute(trx);
    await shift(
      'topup_transactions',
      `jsonb_build_object('id', t.id + ${k * 1_000_000}, 'custom_identifier', t.custom_identifier || '-${k}')`,
    ).execute(trx);
    await sql
      .raw(
        `INSERT INTO ledger_entries SELECT (jsonb_populate_record(NULL::ledger_entries, to_jsonb(e) || jsonb_build_object('id', e.id + ${k * 1_000_000}, 'transaction_id', e.transaction_id + ${k * 1_000_000}))).* FROM ledger_entries e WHERE e.id < 1000000 AND e.transaction_id IS NOT NULL`,
      )
      .execute(trx);
  });
}
const counts = await sql<{ t: string; n: number }>`
  SELECT 'giftcard_transactions' AS t, count(*)::int AS n FROM giftcard_transactions UNION ALL
  SELECT 'topup_transactions', count(*)::int FROM topup_transactions UNION ALL
  SELECT 'ledger_entries', count(*)::int FROM ledger_entries UNION ALL
  SELECT 'giftcard_cards', count(*)::int FROM giftcard_cards UNION ALL
  SELECT 'webhook_deliveries', count(*)::int FROM webhook_deliveries`.execute(db.kysely);
console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, counts.rows);

// The backup through the admin API, with a probe reading the database every 5 ms meanwhile.
let probing = true;
let longestWait = 0;
// PGlite runs each statement on the event loop's thread: the loop stalls while a chunk is read.
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const probe = (async () => {
  while (probing) {
    const t = performance.now();
    await sql`SELECT 1 FROM accounts LIMIT 1`.execute(db.kysely);
    longestWait = Math.max(longestWait, performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
})();
const file = join(work, 'bench.backup.gz');
const t1 = performance.now();
const cpu = process.cpuUsage();
const chunkRows = Number(process.env.BACKUP_CHUNK_ROWS ?? 5000);
const backup = await createBackupService({ db, config, clock: systemClock, chunkRows }).write({
  withoutKeys: false,
});
const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
const held = performance.now() - t1;
await pipeline(await backup.open(), (await import('node:zlib')).createGzip(), createWriteStream(file));
const total = performance.now() - t1;
probing = false;
await probe;
loop.disable();
const orders = counts.rows[0].n + counts.rows[1].n;
console.log(
  `backup of ${orders} orders (${backup.stats.rows} rows): the read transaction held PGlite ${backup.stats.heldMs.toFixed(0)} ms (write() ${held.toFixed(0)} ms, ${cpuMs.toFixed(0)} ms of CPU, ${chunkRows} rows a chunk); longest wait of a query meanwhile ${longestWait.toFixed(0)} ms, longest event-loop stall ${(loop.max / 1e6).toFixed(0)} ms; ` +
    `${(backup.stats.bytes / 1e6).toFixed(1)} MB of JSON lines, ${((await stat(file)).size / 1e6).toFixed(1)} MB gzip'd, ${(total / 1000).toFixed(1)} s with the gzip; ` +
    `=> ${((backup.stats.heldMs * 100_000) / orders / 1000).toFixed(1)} s held per 100k orders`,
);
await app.close();
await runtime.services.upstreams.close();
await runtime.rateLimiter.close();
await db.close();

const t2 = performance.now();
await restoreBackup({
  file,
  env: {},
  target: { kind: 'pglite', dataDir: join(work, 'restored'), sharedBuffers: '16MB' },
});
console.log(`restore into a new DATA_DIR (PGlite): ${((performance.now() - t2) / 1000).toFixed(1)} s`);
if (await postgresAvailable()) {
  const name = `airgift_bench_restore_${process.pid}`;
  const adminPg = new pg.Client({ connectionString: PG_URL });
  await adminPg.connect();
  await adminPg.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const t3 = performance.now();
    await restoreBackup({
      file,
      env: {},
      target: { kind: 'postgres', url: url.toString(), dataDir: join(work, 'pg') },
    });
    console.log(
      `restore into an empty PostgreSQL database: ${((performance.now() - t3) / 1000).toFixed(1)} s`,
    );
  } finally {
    await adminPg.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminPg.end();
  }
}
await rm(work, { recursive: true, force: true });

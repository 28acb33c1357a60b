import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  cp,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  statfs,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { AUDIENCES } from '../harness/client.ts';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';

/**
 * The embedded database (PGlite in DATA_DIR, what `npm start` runs) as an operator meets it: a second
 * start on the same directory or port, kills, damaged and missing files, keys, durability. Each case
 * starts the production bundle as a process of its own (server-process.ts, `embedded`).
 */
const run = promisify(execFile);
const made: string[] = [];
const running = new Set<ServerProcess>();
after(async () => {
  for (const s of running) await s.cleanup();
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'airgift-embedded-'));
  made.push(dir);
  return dir;
}

/**
 * A DATA_DIR as an installation leaves it: one fresh start (initdb, migrations, seed, keys: most of
 * this suite's time) stopped cleanly, copied for each case that is about a later start, not the first.
 */
let installation: Promise<string> | undefined;
async function installedDataDir(into?: string): Promise<string> {
  installation ??= newDataDir().then(async (dir) => {
    await stop(await start(dir));
    return dir;
  });
  const dir = into ?? (await newDataDir());
  await cp(await installation, dir, { recursive: true });
  return dir;
}

const ENV = { LOG_LEVEL: 'warn', RATE_LIMIT_API_REQUESTS: '0', RATE_LIMIT_TOKEN_REQUESTS: '0' };

async function start(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ ...ENV, ...env }, undefined, { database: 'pglite', dataDir });
  running.add(server);
  return server;
}

/** A start that must be refused: the message it exits with. */
async function refusedStart(dataDir: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const server = await start(dataDir, env);
    await kill(server);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('the start was not refused');
}

async function kill(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
  running.delete(server);
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
  running.delete(server);
}

async function tokenOf(server: ServerProcess, credentials = server.credentials): Promise<string> {
  const a = await server.http.post('/auth/oauth/token', {
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    grant_type: 'client_credentials',
    audience: AUDIENCES.giftcardsSandbox,
  });
  assert.equal(a.status, 200, a.text);
  return a.body.access_token;
}

async function placeOrders(
  server: ServerProcess,
  token: string,
  count: number,
  tag: string,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const a = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada', customIdentifier: `${tag}-${i}` },
      { token },
    );
    assert.equal(a.status, 200, a.text);
    ids.push(a.body.transactionId);
  }
  return ids;
}

async function reportedIds(server: ServerProcess, token: string): Promise<number[]> {
  const a = await server.http.get('/giftcards-sandbox/reports/transactions?size=1000', { token });
  assert.equal(a.status, 200, a.text);
  return (a.body as Array<{ transactionId: number }>).map((t) => t.transactionId).sort((x, y) => x - y);
}

async function ledgerAudit(server: ServerProcess) {
  const a = await server.admin.call('GET', '/ledger/audit');
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body as { discrepancies: unknown[]; orders: Array<{ transactionId: number; problem: string }> };
}

describe('the embedded database', { timeout: 900_000 }, () => {
  test('one server per DATA_DIR: a second start is refused before it touches anything, and nothing is lost', async () => {
    const dir = await installedDataDir();
    const first = await start(dir);
    const token = await tokenOf(first);
    const before = await placeOrders(first, token, 20, 'first');

    // the same DATA_DIR on another port: refused, naming the holder
    const message = await refusedStart(dir);
    assert.match(message, new RegExp(`in use by another airgift: pid ${first.child.pid}`));

    // another DATA_DIR on the port in use: refused before its data directory gets a database
    const other = await newDataDir();
    const port = new URL(first.url).port;
    assert.match(await refusedStart(other, { PORT: port }), new RegExp(`port ${port} is already in use`));
    assert.equal(existsSync(join(other, 'pgdata')), false, 'the refused start made a database');

    const more = await placeOrders(first, token, 20, 'second');
    await kill(first);
    const again = await start(dir);
    assert.deepEqual(await reportedIds(again, await tokenOf(again, first.credentials)), [...before, ...more]);
    assert.deepEqual(await ledgerAudit(again), { discrepancies: [], orders: [] });

    // a lock left by a killed process is stale: taken over (the restart above proves it too)
    await kill(again);
    assert.equal(existsSync(join(dir, 'airgift.lock')), true, 'a SIGKILL leaves the lock file');
    const third = await start(dir);
    await stop(third);
    assert.equal(existsSync(join(dir, 'airgift.lock')), false, 'a clean stop removes the lock file');
  });

  test('a data directory that holds files but no PG_VERSION is never replaced', async () => {
    const dir = await installedDataDir();
    const first = await start(dir);
    const ids = await placeOrders(first, await tokenOf(first), 5, 'kept');
    await stop(first);
    const pgdata = join(dir, 'pgdata');
    await rename(join(pgdata, 'PG_VERSION'), join(dir, 'PG_VERSION.moved'));
    const files = (await readdir(pgdata)).sort();
    assert.match(await refusedStart(dir), /holds files but no PG_VERSION.*never replaces/s);
    assert.deepEqual((await readdir(pgdata)).sort(), files, 'the refused start changed the directory');
    await rename(join(dir, 'PG_VERSION.moved'), join(pgdata, 'PG_VERSION'));
    const again = await start(dir);
    assert.deepEqual(await reportedIds(again, await tokenOf(again, first.credentials)), ids);
    await stop(again);
  });

  test('keys are made only for a new installation: a missing, empty or different key stops the start', async () => {
    const dir = await installedDataDir();
    const first = await start(dir);
    await placeOrders(first, await tokenOf(first), 1, 'sealed');
    await stop(first);
    const codesKey = join(dir, 'card-codes.key');
    await rename(codesKey, `${codesKey}.moved`);
    assert.match(await refusedStart(dir), /card-codes\.key \(the redeem codes key\) is missing/);
    await writeFile(codesKey, 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n');
    assert.match(
      await refusedStart(dir),
      /the redeem codes key .* is not the one this database's data was protected with/,
    );
    await rename(`${codesKey}.moved`, codesKey);
    // the harness gives the admin and signing keys in the environment; without them the files count
    assert.match(await refusedStart(dir, { ADMIN_KEY: '' }), /admin\.key \(the admin key\) is missing/);
    await writeFile(join(dir, 'admin.key'), '');
    assert.match(await refusedStart(dir, { ADMIN_KEY: '' }), /admin\.key \(the admin key\) is empty/);
    await writeFile(join(dir, 'token-signing.key'), '\n');
    assert.match(
      await refusedStart(dir, { TOKEN_SIGNING_KEY: '' }),
      /token-signing\.key \(the token signing key\) is empty/,
    );
  });

  test('damage is named: lost rows show in the ledger audit, an unreadable database stops the start', async () => {
    const dir = await installedDataDir();
    const first = await start(dir);
    const ids = await placeOrders(first, await tokenOf(first), 30, 'page');
    await stop(first);
    // zero the first 8 KB page of giftcard_transactions (PostgreSQL reads an all-zero page as empty)
    const pglite = await PGlite.create(join(dir, 'pgdata'));
    const path = (
      await pglite.query<{ p: string }>(`SELECT pg_relation_filepath('giftcard_transactions') AS p`)
    ).rows[0]?.p as string;
    await pglite.close();
    const file = await open(join(dir, 'pgdata', path), 'r+');
    await file.write(Buffer.alloc(8192), 0, 8192, 0);
    await file.close();
    const again = await start(dir);
    const audit = await ledgerAudit(again);
    assert.deepEqual(audit.discrepancies, [], 'balances still equal their entries');
    const lost = audit.orders.map((o) => o.transactionId);
    assert.ok(lost.length > 0 && lost.every((id) => ids.includes(id)), JSON.stringify(audit.orders));
    assert.ok(
      audit.orders.every((o) => o.problem === 'ledger entries for a transaction that does not exist'),
    );
    await stop(again);

    await truncate(join(dir, 'pgdata', 'global', 'pg_control'), 100);
    assert.match(await refusedStart(dir), /files are damaged.*npx airgift restore/s);
  });

  test('an interrupted first start leaves nothing behind, and lost sandbox credentials are made again', async () => {
    const dir = await newDataDir();
    await mkdir(join(dir, 'pgdata.initdb-4242', 'base'), { recursive: true });
    const first = await start(dir);
    assert.equal(existsSync(join(dir, 'pgdata.initdb-4242')), false);
    await kill(first);
    await rm(join(dir, 'sandbox-credentials.json'));
    const again = await startServerProcess({ ...ENV }, undefined, { database: 'pglite', dataDir: dir });
    running.add(again);
    assert.match(
      again.output(),
      /sandbox-credentials\.json was missing: the sandbox account \(id 1\) got a new credential/,
    );
    assert.notEqual(again.credentials.clientId, first.credentials.clientId);
    await tokenOf(again); // the new credential works
    await stop(again);
  });

  test('commits reach the disk: fdatasync after every acknowledged order', async (t) => {
    if (!existsSync('/usr/bin/strace')) return t.skip('strace is not installed (apt-get install strace)');
    const dir = await installedDataDir();
    const server = await start(dir);
    const token = await tokenOf(server);
    await placeOrders(server, token, 2, 'warm');
    const log = join(dir, 'strace.log');
    const tracer = spawn(
      'strace',
      ['-f', '-e', 'trace=fsync,fdatasync', '-o', log, '-p', String(server.child.pid)],
      {
        stdio: 'ignore',
      },
    );
    await sleep(1000); // strace attaches
    await placeOrders(server, token, 20, 'durable');
    tracer.kill('SIGINT');
    await new Promise((resolve) => tracer.once('exit', resolve));
    const syncs = (await readFile(log, 'utf8')).split('\n').filter((l) => /fdatasync\(|fsync\(/.test(l));
    assert.ok(syncs.length >= 20, `${syncs.length} syncs for 20 orders placed one after another`);
    await stop(server);
  });

  test('a full disk answers 503 with Retry-After and /ready says so; it recovers by itself, and a start names the disk', async (t) => {
    const mount = await newDataDir();
    const mounted = await run('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mount]).then(
      () => true,
      () => false,
    );
    if (!mounted) return t.skip('cannot mount a small tmpfs here (needs root)');
    t.after(() => run('umount', ['-l', mount]).catch(() => undefined));
    const dir = await installedDataDir(join(mount, 'data'));
    const filler = join(mount, 'filler');
    /** Takes all the free space of the mount but `leave` bytes. */
    const fill = async (leave: number) => {
      const { bavail, bsize } = await statfs(mount);
      await run('fallocate', ['-l', String(Math.max(bavail * bsize - leave, 4096)), filler]);
    };
    const server = await start(dir);
    const token = await tokenOf(server);
    await fill(64 * 1024);
    let full: null | { status: number; retryAfter: unknown; errorCode: string } = null;
    for (let i = 0; i < 6000 && !full; i += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          server.http.post(
            '/giftcards-sandbox/orders',
            {
              productId: 11,
              quantity: 1,
              unitPrice: 10,
              senderName: 'Ada',
              customIdentifier: `full-${i + k}`,
            },
            { token },
          ),
        ),
      );
      assert.ok(
        answers.every((a) => a.status === 200 || a.status === 503),
        answers.find((a) => a.status !== 200 && a.status !== 503)?.text,
      );
      const refused = answers.find((a) => a.status !== 200);
      if (refused) {
        full = {
          status: refused.status,
          retryAfter: refused.headers['retry-after'],
          errorCode: refused.body.errorCode,
        };
      }
    }
    assert.deepEqual(full, {
      status: 503,
      retryAfter: '2',
      errorCode: 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
    });
    const ready = await server.http.get('/ready');
    assert.equal(ready.status, 503);
    assert.match(ready.body.checks.disk, /^full: /);

    // room again: ready at once (well within the 30 s a refused write holds /ready on PostgreSQL)
    await rm(filler);
    const deadline = Date.now() + 10_000;
    let back = 0;
    while (Date.now() < deadline && back !== 200) {
      back = (await server.http.get('/ready')).status;
      if (back !== 200) await sleep(1000);
    }
    assert.equal(back, 200, '/ready did not come back');
    await placeOrders(server, token, 3, 'after');
    assert.deepEqual(await ledgerAudit(server), { discrepancies: [], orders: [] });

    await kill(server);
    await fill(0);
    assert.match(await refusedStart(dir), /the disk holding .* is full/);
    await rm(filler);
    const again = await start(dir);
    assert.deepEqual(await ledgerAudit(again), { discrepancies: [], orders: [] });
    await stop(again);
  });
});

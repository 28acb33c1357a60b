import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import { adminQuery, type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { ADMIN_PG_URL, withDatabase } from '../harness/templates.ts';
import {
  airgift,
  cliTo,
  GIFTCARDS,
  type Installation,
  orderLoad,
  populate,
  QUIET_WEBHOOKS,
  snapshot,
  untilAnswered,
} from './helpers.ts';

// Issue 25, item 10: `airgift backup` takes a consistent backup of a running server through the
// admin API while orders keep arriving; `airgift restore` puts it into an empty DATA_DIR (PGlite) or
// an empty PostgreSQL database: the way to move an embedded installation to PostgreSQL with every
// balance, order, code and credential. Real server processes, the real CLI, both databases.
const pg = await postgresForTests();
const work = await mkdtemp(join(tmpdir(), 'airgift-backup-'));
const servers: ServerProcess[] = [];
const databases: string[] = [];
after(async () => {
  for (const s of servers.reverse()) await s.cleanup();
  for (const name of databases) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await rm(work, { recursive: true, force: true });
});

/** The keys as a plain start makes them: the signing and card codes keys in files, the admin key given. */
const SOURCE_ENV = { ...QUIET_WEBHOOKS, TOKEN_SIGNING_KEY: '' };

async function start(data: Parameters<typeof startServerProcess>[2]) {
  const server = await startServerProcess(SOURCE_ENV, undefined, data);
  servers.push(server);
  return server;
}

/** A new, empty PostgreSQL database (dropped after the suite). */
async function emptyDatabase(): Promise<string> {
  const name = `airgift_restore_${process.pid}_${databases.length}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  databases.push(name);
  return withDatabase(ADMIN_PG_URL, name);
}

/** `airgift restore --from FILE` as an operator runs it beside a stopped server: no key variables. */
async function restore(file: string, dataDir: string, databaseUrl = '') {
  const keyless = { ADMIN_KEY: '', TOKEN_SIGNING_KEY: '', CARD_CODES_KEY: '' };
  const { stdout } = await airgift(
    { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...keyless },
    'restore',
    '--from',
    file,
  );
  return stdout;
}

async function audit(server: ServerProcess) {
  return (await server.admin.ok('GET', '/ledger/audit')).discrepancies;
}

describe('a PGlite installation: backup while orders arrive, restore into PGlite and PostgreSQL', () => {
  let source: ServerProcess;
  let who: Installation;

  before(async () => {
    source = await start({ database: 'pglite' });
    who = await populate(source);
  });

  test('the backup taken under load restores into an empty DATA_DIR as one consistent moment', async () => {
    const load = orderLoad(source, who);
    await untilAnswered(load, 10);
    const before = load.answered.length;
    const answeredBefore = load.answered.slice(0, before);
    const file = join(work, 'under-load.backup.gz');
    const { stdout } = await airgift(cliTo(source), 'backup', '--out', file);
    const during = load.answered.length - before;
    await load.stop();
    assert.ok(during > 0, 'orders kept being answered while the backup ran');
    assert.match(stdout, /backup written to .*: \d+ rows of \d+ tables/);
    assert.match(stdout, /card-codes\.key: in the backup/);
    assert.match(stdout, /token-signing\.key: in the backup/);
    assert.match(stdout, /admin\.key: NOT in the backup: the server takes it from ADMIN_KEY/);
    assert.equal((await stat(file)).mode & 0o777, 0o600, 'the backup file is mode 0600');
    assert.deepEqual(
      (await readdir(source.dataDir)).filter((f) => f.startsWith('backup-')),
      [],
      'no temporary file is left in DATA_DIR',
    );

    const dataDir = join(work, 'restored-under-load');
    const said = await restore(file, dataDir);
    assert.match(said, /restored \d+ rows of \d+ tables into PGlite at/);
    assert.match(said, /card-codes\.key written from the backup/);
    assert.match(said, /admin\.key: NOT in the backup \(the source took it from ADMIN_KEY\); set ADMIN_KEY/);
    assert.equal((await stat(join(dataDir, 'card-codes.key'))).mode & 0o777, 0o600);
    const restored = await start({ database: 'pglite', dataDir, credentials: source.credentials });
    assert.deepEqual(await audit(restored), [], 'every balance equals its entries in the restored copy');
    // every order answered before the backup began is in it, each with the source's report
    for (const o of answeredBefore) {
      const path =
        o.kind === 'giftcard'
          ? `/giftcards-sandbox/reports/transactions/${o.id}`
          : `/topups-sandbox/topups/reports/transactions/${o.id}`;
      const token = o.kind === 'giftcard' ? who.sandboxToken : who.topupToken;
      const headers =
        o.kind === 'giftcard' ? GIFTCARDS : { accept: 'application/com.reloadly.topups-v1+json' };
      const [a, b] = [
        await restored.http.get(path, { token, headers }),
        await source.http.get(path, { token, headers }),
      ];
      assert.equal(a.status, 200, `order ${o.kind} ${o.id} answered before the backup is missing`);
      assert.deepEqual(a.body, b.body);
    }
    // and it is one moment: the balance shown equals the last ledger entry's balance after it
    const account = await restored.admin.ok('GET', `/accounts/${who.sandbox.accountId}`);
    const [newest] = (
      await restored.admin.ok('GET', `/accounts/${who.sandbox.accountId}/ledger?environment=sandbox&size=1`)
    ).items;
    assert.equal(account.balances.sandbox.balance, newest.balanceAfter);
    await restored.cleanup();
  });

  describe('a quiet backup restores the same installation', () => {
    let file: string;
    let expected: Awaited<ReturnType<typeof snapshot>>;
    let chain: { ok: boolean; lines: number; head: { auditId: number; hash: string } };

    before(async () => {
      file = join(work, 'quiet.backup.gz');
      await airgift(cliTo(source), 'backup', '--out', file);
      expected = await snapshot(source, who);
      chain = await source.admin.ok('GET', '/audit/verify');
    });

    const sameInstallation = async (restored: ServerProcess) => {
      assert.deepEqual(await audit(restored), []);
      // the audit log came with its hash chain (issue 28): it holds, and goes on from the same head
      const restoredChain = await restored.admin.ok('GET', '/audit/verify');
      assert.deepEqual(
        [restoredChain.ok, restoredChain.head],
        [true, chain.head],
        JSON.stringify(restoredChain),
      );
      await restored.admin.ok('PUT', '/fx-rates/EUR', { unitsPerUsd: '0.95' });
      const onwards = await restored.admin.ok('GET', '/audit/verify');
      assert.deepEqual([onwards.ok, onwards.lines], [true, chain.lines + 1]);
      assert.deepEqual(
        await snapshot(restored, who),
        expected,
        'balances, orders, reports, codes, stock, webhooks',
      );
      // the source's token still works (token-signing.key came along) and the old credentials get new ones
      const balance = await restored.http.get('/giftcards-sandbox/accounts/balance', {
        token: who.sandboxToken,
        headers: GIFTCARDS,
      });
      assert.equal(balance.status, 200, balance.text);
      assert.ok(await restored.token(AUDIENCES.giftcardsSandbox), 'the bootstrap credential gets a token');
      // the sequences moved on: a new order takes the next id, and its event is the only new one
      const last = expected.giftcards[0].transactionId as number;
      const next = await restored.http.post(
        '/giftcards-sandbox/orders',
        { productId: 11, quantity: 1, unitPrice: 10, senderName: 'After', customIdentifier: 'after-restore' },
        { token: who.sandboxToken, headers: GIFTCARDS },
      );
      assert.equal(next.status, 200, next.text);
      assert.ok(next.body.transactionId > last, `id ${next.body.transactionId} after ${last}`);
      const deliveries = await restored.admin.ok('GET', `/webhooks/${who.endpointId}/deliveries?size=1`);
      assert.equal(
        deliveries.total,
        expected.deliveries.total + 1,
        'no event of the restored rows fired again',
      );
      assert.deepEqual(await audit(restored), []);
    };

    test('into an empty DATA_DIR: PGlite', async () => {
      const dataDir = join(work, 'restored-quiet');
      await restore(file, dataDir);
      await sameInstallation(await start({ database: 'pglite', dataDir, credentials: source.credentials }));
    });

    test('into an empty PostgreSQL database: the move to DATABASE_URL', {
      skip: !pg && 'PostgreSQL not reachable',
    }, async () => {
      const url = await emptyDatabase();
      const dataDir = join(work, 'restored-postgres');
      const said = await restore(file, dataDir, url);
      assert.match(said, /restored \d+ rows of \d+ tables into PostgreSQL postgres:/);
      assert.ok(existsSync(join(dataDir, 'card-codes.key')));
      assert.ok(!existsSync(join(dataDir, 'pgdata')), 'nothing embedded is made');
      await sameInstallation(await start({ database: { url }, dataDir, credentials: source.credentials }));
    });
  });
});

describe('a PostgreSQL installation under load', { skip: !pg && 'PostgreSQL not reachable' }, () => {
  test('its backup is one snapshot: the restored ledger audit is empty', async () => {
    // Several connections write at once here, unlike PGlite: only the one REPEATABLE READ
    // transaction keeps the balances, the entries and the orders of one moment.
    const source = await startServerProcess(SOURCE_ENV);
    servers.push(source);
    const who = await populate(source);
    const load = orderLoad(source, who, 4);
    await untilAnswered(load, 10);
    const file = join(work, 'postgres-under-load.backup.gz');
    await airgift(cliTo(source), 'backup', '--out', file);
    await load.stop();
    const dataDir = join(work, 'restored-from-postgres');
    await restore(file, dataDir);
    const restored = await start({ database: 'pglite', dataDir, credentials: source.credentials });
    assert.deepEqual(await audit(restored), []);
  });
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ADMIN_KEY, AUDIENCES, startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';

// decisions §8: the airgift command talks to the admin API; every command takes --json.
const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
let server: TestServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startTestServer();
  const caFile = join(CACHE_DIR, 'cli-ca.pem');
  await writeFile(caFile, (await import('node:fs')).readFileSync(join(CACHE_DIR, 'tls', 'ca.crt')));
  env = { ...process.env, AIRGIFT_URL: server.url, AIRGIFT_ADMIN_KEY: ADMIN_KEY, AIRGIFT_CA_FILE: caFile };
});
after(() => server.close());

const airgift = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });

test('accounts create --json prints exactly accountId, environment, clientId, clientSecret, balance', async () => {
  const { stdout } = await airgift(
    'accounts',
    'create',
    '--name',
    'a',
    '--currency',
    'USD',
    '--country',
    'US',
    '--environment',
    'sandbox',
    '--fund',
    '1000',
    '--json',
  );
  const created = JSON.parse(stdout);
  assert.deepEqual(Object.keys(created), ['accountId', 'environment', 'clientId', 'clientSecret', 'balance']);
  assert.equal(created.environment, 'sandbox');
  assert.equal(created.balance, 1000);
  const token = await server.admin.token(created, AUDIENCES.topupsSandbox);
  const balance = await server.http.get('/topups-sandbox/accounts/balance', { token });
  assert.equal(balance.body.balance, 1000);
});

test('fund, adjust (negative), ledger and audit from the command line', async () => {
  const { stdout } = await airgift(
    'accounts',
    'create',
    '--name',
    'b',
    '--currency',
    'EUR',
    '--country',
    'DE',
    '--environment',
    'live',
    '--json',
  );
  const { accountId } = JSON.parse(stdout);
  await airgift(
    'accounts',
    'fund',
    String(accountId),
    '--environment',
    'live',
    '--amount',
    '20',
    '--reason',
    'wire 1',
  );
  const adjusted = JSON.parse(
    (
      await airgift(
        'accounts',
        'adjust',
        String(accountId),
        '--environment',
        'live',
        '--amount',
        '-2.5',
        '--reason',
        'fee',
        '--json',
      )
    ).stdout,
  );
  assert.equal(adjusted.newBalance, 17.5);
  const ledger = JSON.parse(
    (await airgift('accounts', 'ledger', String(accountId), '--environment', 'live', '--json')).stdout,
  );
  assert.deepEqual(
    ledger.items.map((e: any) => e.reason),
    ['fee', 'wire 1'],
  );
  const audit = JSON.parse((await airgift('ledger', 'audit', '--json')).stdout);
  assert.deepEqual(audit.discrepancies, []);
});

test('deactivate, credentials create and revoke', async () => {
  const { accountId } = JSON.parse(
    (
      await airgift(
        'accounts',
        'create',
        '--name',
        'c',
        '--currency',
        'USD',
        '--country',
        'US',
        '--environment',
        'sandbox',
        '--json',
      )
    ).stdout,
  );
  const deactivated = JSON.parse(
    (await airgift('accounts', 'deactivate', String(accountId), '--json')).stdout,
  );
  assert.equal(deactivated.status, 'INACTIVE');
  const cred = JSON.parse(
    (
      await airgift(
        'credentials',
        'create',
        String(accountId),
        '--environment',
        'sandbox',
        '--scopes',
        'read-operators',
        '--json',
      )
    ).stdout,
  );
  assert.deepEqual(cred.scopes, ['read-operators']);
  const revoked = JSON.parse((await airgift('credentials', 'revoke', cred.clientId, '--json')).stdout);
  assert.equal(revoked.revoked, true);
});

test('a bad request exits non-zero with the error on stderr', async () => {
  await assert.rejects(
    airgift(
      'accounts',
      'create',
      '--name',
      'x',
      '--currency',
      'XYZ',
      '--country',
      'US',
      '--environment',
      'sandbox',
    ),
    (error: any) => error.code === 1 && /INVALID_REQUEST/.test(error.stderr) && /currency/.test(error.stderr),
  );
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { BIN, cliEnv } from '../harness/cli.ts';
import { AUDIENCES, caPem } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';

// decisions §8: the airgift command talks to the admin API; every command takes --json.
const run = promisify(execFile);
let server: TestServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startTestServer();
  const caFile = join(CACHE_DIR, 'cli-ca.pem');
  await writeFile(caFile, caPem());
  env = cliEnv(server.url, caFile);
});
after(() => server.close());

const airgift = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });

/** `accounts create --json` of a USD sandbox account, with any further options. */
const createUsdSandboxAccount = async (name: string, ...options: string[]) =>
  JSON.parse(
    (
      await airgift(
        ...['accounts', 'create', '--name', name, '--currency', 'USD', '--country', 'US'],
        ...['--environment', 'sandbox', ...options, '--json'],
      )
    ).stdout,
  ) as { accountId: number };

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
  const { accountId } = await createUsdSandboxAccount('c');
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

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const socket = createServer();
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  await new Promise((resolve) => socket.close(resolve));
  return port;
}

const failure = (args: string[]) =>
  airgift(...args).then(
    () => assert.fail(`airgift ${args.join(' ')} succeeded`),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

test('limits, show, list, activate: text and --json; none removes a limit', async () => {
  const { accountId } = await createUsdSandboxAccount(
    'd',
    '--daily-count-limit',
    '5',
    '--daily-amount-limit',
    '50',
  );
  const id = String(accountId);
  const limited = JSON.parse(
    (
      await airgift(
        'accounts',
        'limits',
        id,
        '--daily-count-limit',
        'none',
        '--daily-amount-limit',
        '7.5',
        '--json',
      )
    ).stdout,
  );
  assert.equal(limited.dailyCountLimit, null);
  assert.equal(limited.dailyAmountLimit, 7.5);
  const shown = (await airgift('accounts', 'show', id)).stdout;
  assert.match(shown, new RegExp(`^accountId +${id}$`, 'm'));
  assert.match(shown, /^dailyCountLimit +null$/m);
  // Balances and credentials as columns, no raw JSON in the table.
  assert.doesNotMatch(shown, /[{[]"/);
  assert.match(shown, /^balances \(USD\)\nenvironment +balance +updated$/m);
  assert.match(shown, /^sandbox +\d+(\.\d+)? +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
  assert.match(shown, /^credentials\nclientId +environment +status +created +scopes$/m);
  assert.match(shown, /^ag_test_\S+ +sandbox +active +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\S+$/m);
  const list = JSON.parse((await airgift('accounts', 'list', '--size', '500', '--json')).stdout);
  assert.ok(list.items.some((a: { accountId: number }) => a.accountId === accountId));
  assert.equal((await airgift('accounts', 'deactivate', id)).stdout, `account ${id} is INACTIVE\n`);
  assert.equal(JSON.parse((await airgift('accounts', 'activate', id, '--json')).stdout).status, 'ACTIVE');
});

test('accounts shapes: service then documented, what the gift card base answers follows (issue 27)', async () => {
  const created = JSON.parse(
    (
      await airgift(
        ...['accounts', 'create', '--name', 'shapes', '--currency', 'USD', '--country', 'US'],
        ...['--environment', 'sandbox', '--json'],
      )
    ).stdout,
  );
  const id = String(created.accountId);
  const token = await server.admin.token(created, AUDIENCES.giftcardsSandbox);
  const products = () => server.http.get('/giftcards-sandbox/products?size=1', { token });
  assert.ok(Array.isArray((await products()).body));
  assert.equal(
    (await airgift('accounts', 'shapes', id, 'service')).stdout,
    `account ${id} answers the service shapes\n`,
  );
  assert.equal((await products()).body.totalPages > 0, true);
  assert.match((await airgift('accounts', 'show', id)).stdout, /^shapes +service$/m);
  const back = JSON.parse((await airgift('accounts', 'shapes', id, 'documented', '--json')).stdout);
  assert.equal(back.shapes, 'documented');
  assert.ok(Array.isArray((await products()).body));
  const wrong = await failure(['accounts', 'shapes', id, 'paged']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /Allowed choices are documented, service/);
});

test('an API error with --json prints its envelope on stdout too', async () => {
  const error = await failure(['accounts', 'show', '999999', '--json']);
  assert.equal(error.code, 1);
  assert.equal(JSON.parse(error.stdout).errorCode, 'ACCOUNT_NOT_FOUND');
  assert.match(error.stderr, /^airgift: 404 ACCOUNT_NOT_FOUND /);
});

test('help is generated for the program and for each command', async () => {
  const root = (await airgift('--help')).stdout;
  for (const command of ['accounts', 'credentials', 'ledger', 'catalog', 'products']) {
    assert.match(root, new RegExp(`^  ${command} `, 'm'));
  }
  assert.match(root, /AIRGIFT_ADMIN_KEY/);
  assert.equal((await airgift()).stdout, root);
  const create = (await airgift('accounts', 'create', '--help')).stdout;
  for (const option of [
    '--name',
    '--currency',
    '--country',
    '--environment',
    '--fund',
    '--scopes',
    '--json',
  ]) {
    assert.ok(create.includes(`  ${option} `), `${option} in the help of accounts create`);
  }
  assert.match(create, /"sandbox", "live"/);
  assert.match((await airgift('accounts', '--help')).stdout, /^ {2}fund \[options\] <id>/m);
});

test('exit codes: 2 for no such command, 1 for a bad option or argument or an unreachable server', async () => {
  assert.equal((await failure(['accounts', 'frobnicate'])).code, 2);
  assert.equal((await failure(['accounts'])).code, 2);
  const unknown = await failure(['accounts', 'show', '1', '--environment', 'sandbox']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^airgift: unknown option '--environment'/);
  const choice = await failure(['accounts', 'fund', '1', '--environment', 'staging', '--amount', '1']);
  assert.equal(choice.code, 1);
  assert.match(choice.stderr, /sandbox, live/);
  assert.equal((await failure(['accounts', 'show', 'abc'])).code, 1);
  assert.match(
    (await failure(['accounts', 'adjust', '1', '--environment', 'live', '--amount', '-1'])).stderr,
    /--reason/,
  );
  const port = await closedPort();
  const down = await run(process.execPath, [BIN, 'ledger', 'audit'], {
    env: { ...env, AIRGIFT_URL: `https://127.0.0.1:${port}` },
  }).then(
    () => assert.fail('reached a server on port 9'),
    (error: { code: number; stderr: string }) => error,
  );
  assert.equal(down.code, 1);
  assert.match(
    down.stderr,
    new RegExp(`^airgift: Cannot reach https://127\\.0\\.0\\.1:${port}/admin: .*ECONNREFUSED`),
  );
});

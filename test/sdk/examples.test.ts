import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { AUDIENCES, CA_FILE, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// The examples as a user runs them, each a child process pointed at a real test server through the
// environment variables examples/README.md documents; their printed output is checked.
const ROOT = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

describe('examples', () => {
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startTestServer();
    account = await server.admin.createAccount({ environment: 'sandbox', fund: 1000 });
  });
  after(() => server.close());

  async function runExample(file: string, args: string[] = [], extraEnv: Record<string, string> = {}) {
    const env = {
      ...process.env,
      AIRGIFT_URL: server.url,
      AIRGIFT_PUBLIC_URL: 'https://localhost',
      AIRGIFT_CLIENT_ID: account.clientId,
      AIRGIFT_CLIENT_SECRET: account.clientSecret,
      AIRGIFT_CA_FILE: CA_FILE,
      ...extraEnv,
    };
    try {
      const { stdout, stderr } = await exec(
        process.execPath,
        ['--import', 'tsx', join('examples', file), ...args],
        {
          cwd: ROOT,
          env,
          timeout: 60_000,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  test('buy-gift-card buys a sandbox card and prints its exact code', async () => {
    const run = await runExample('buy-gift-card.ts');
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Bought airgift Sandbox Success \(10 USD\) for [\d.]+ USD: transaction \d+, SUCCESSFUL$/m,
    );
    const transactionId = /transaction (\d+)/.exec(run.stdout)![1];
    const cardNumber = /^Card number: (\S+)$/m.exec(run.stdout)?.[1];
    const pinCode = /^PIN code: +(\S+)$/m.exec(run.stdout)?.[1];
    const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
    const raw = await server.http.get(`/giftcards-sandbox/orders/transactions/${transactionId}/cards`, {
      token,
    });
    // The server writes digit codes as JSON numbers, and a code with a leading zero as a string.
    const json = (code = '') => (/^[1-9]\d*$/.test(code) ? code : JSON.stringify(code));
    assert.equal(raw.text, `[{"cardNumber":${json(cardNumber)},"pinCode":${json(pinCode)}}]`);
  });

  test('topup detects MTN Nigeria for a Nigerian number and tops it up', async () => {
    const run = await runExample('topup.ts', ['+2348031234567', 'NG', '5']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^\+2348031234567 is served by MTN Nigeria \(operator 1001, RANGE, NGN\)$/m);
    assert.match(run.stdout, /^Sent 5 USD, delivered [\d.]+ NGN: transaction \d+, SUCCESSFUL$/m);
  });

  test('an example that fails prints the error code and request id and exits 1', async () => {
    const run = await runExample('topup.ts', ['+2348031234567', 'NG', '5']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^PHONE_RECENTLY_RECHARGED \(HTTP 400\): /m);
    assert.match(run.stderr, /request id: \S+/);
  });

  test('monthly-transactions lists every purchase of the month across pages', async () => {
    const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
    for (let i = 0; i < 6; i++) {
      const order = await server.http.post(
        '/giftcards-sandbox/orders',
        { productId: 11, quantity: 1, unitPrice: 25, senderName: 'examples test' },
        { token },
      );
      assert.equal(order.status, 200, order.text);
    }
    const listed = await server.http.get('/giftcards-sandbox/reports/transactions?size=100', { token });
    const ids = (listed.body as Array<{ transactionId: number }>).map((t) => t.transactionId);
    assert.equal(ids.length, 7);

    const month = server.clock.now().toISOString().slice(0, 7);
    const run = await runExample('monthly-transactions.ts', [month], { AIRGIFT_PAGE_SIZE: '2' });
    assert.equal(run.code, 0, run.stderr);
    const printed = [...run.stdout.matchAll(/#(\d+) +SUCCESSFUL +1 × airgift Sandbox Success/g)].map((m) =>
      Number(m[1]),
    );
    assert.deepEqual(
      printed.sort((a, b) => a - b),
      ids.sort((a, b) => a - b),
    );
    assert.match(run.stdout, /^7 gift card purchases \([\d.]+ USD\) in 4 pages$/m);
    assert.match(run.stdout, /^1 top-ups \(\d+(\.\d+)? USD\) in 1 pages$/m);
  });
});

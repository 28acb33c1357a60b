import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { AUDIENCES, type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import {
  acceptInvitation,
  admin,
  CHROMIUM,
  hasChromium,
  launchBrowser,
  newContext,
  sandboxUser,
  seriousViolations,
  signIn,
} from './browser.ts';

/**
 * Issue 28 in a real browser: a developer reads the request log of a failed call on the dashboard
 * (what was sent, secrets masked, and what was answered), the operator reads the same account's in
 * the console, downloads the audit log as CSV and has its chain verified. axe finds nothing serious
 * or critical on these pages.
 */
const skip = hasChromium
  ? false
  : `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

describe('the request log and the audit log in a browser', { skip }, () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let ops: Page;
  const problems: string[] = [];
  const secret = 'sk_test_pastedintothewrongfield';

  before(async () => {
    [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
    const user = await sandboxUser(server);
    page = await (await newContext(browser, server)).newPage();
    await signIn(page, '/dashboard', user.email, user.password);
    const invited = await admin(server, 'POST', '/operators', { email: 'support@example.com' });
    ops = await (await newContext(browser, server)).newPage();
    await acceptInvitation(ops, server, invited.link, 'support passphrase 1');
    await signIn(ops, '/console', 'support@example.com', 'support passphrase 1');
  });

  after(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  test('the developer finds a failed call, what was sent (masked) and answered, by status', async () => {
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    const ok = await server.http.get('/giftcards-sandbox/accounts/balance', { token });
    assert.equal(ok.status, 200);
    const failed = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 'ten', senderName: secret },
      { token, headers: { 'x-request-id': 'req-browser-failed' } },
    );
    assert.equal(failed.status, 400);
    await page.goto('/dashboard/#/requests?environment=sandbox');
    // written within 200 ms, off the request path
    const row = page.getByRole('row').filter({ hasText: 'req-browser-failed' });
    for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
      await page.waitForTimeout(200);
      await page.reload();
      await page.locator('main h1 + div').waitFor();
    }
    await row.waitFor();
    await page.getByRole('row').filter({ hasText: '/giftcards-sandbox/accounts/balance' }).first().waitFor();
    problems.push(...(await seriousViolations(page)).map((v) => `dashboard requests: ${v}`));
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=failed/);
    await row.waitFor();
    assert.equal(
      await page.getByRole('row').filter({ hasText: '/giftcards-sandbox/accounts/balance' }).count(),
      0,
      'only failed requests',
    );
    await row.getByText('Body of req-browser-failed').click();
    await row.getByText('"unitPrice":"ten"').waitFor();
    await row.getByText('"senderName":"[redacted]"').waitFor();
    await row.getByText('INVALID_REQUEST').first().waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'the pasted secret is never shown');
    problems.push(...(await seriousViolations(page)).map((v) => `dashboard failed requests: ${v}`));
    await page.getByLabel('Path contains').fill('/nothing-like-this');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No request matches these filters.').waitFor();
  });

  test("the operator reads the account's request log, downloads the audit log and verifies its chain", async () => {
    await ops.goto(`/console/#/account?id=${server.credentials.accountId}`);
    await ops.getByRole('link', { name: 'API request log of this account' }).click();
    await ops.getByLabel('Environment').selectOption('sandbox');
    await ops.getByRole('button', { name: 'Show' }).click();
    await ops.getByRole('row').filter({ hasText: 'req-browser-failed' }).waitFor();
    problems.push(...(await seriousViolations(ops)).map((v) => `console requests: ${v}`));

    await ops.goto('/console/#/audit');
    await ops.getByRole('row').filter({ hasText: 'session.sign-in' }).first().waitFor();
    const [download] = await Promise.all([
      ops.waitForEvent('download'),
      ops.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>)
      chunks.push(chunk);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\r\n');
    assert.match(lines[0], /^auditId,at,channel,actorKind,actorId,actor,/);
    assert.ok(lines.some((l) => l.includes('operator.create') && l.includes(',admin,admin-key,')));
    await ops.getByRole('button', { name: 'Verify the chain' }).click();
    await ops.getByText(/The chain of \d+ lines holds/).waitFor();
    problems.push(...(await seriousViolations(ops)).map((v) => `console audit: ${v}`));
    assert.deepEqual(problems, []);
  });
});

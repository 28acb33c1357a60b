import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../harness/server.ts';
import type { ServerProcess } from '../harness/server-process.ts';
import { hasChromium, launchBrowser, newContext, seriousViolations, signIn } from '../web/browser.ts';
import { type MailServer, startMailServer } from './mail-server.ts';

// Issue 26, the dashboard: a gift card order's delivery log with Resend to a corrected address, the
// reveals on the redeem page, and the account's branding with its preview, which the next e-mail uses.
const AMAZON_US = 1840;
let server: TestServer;
let mail: MailServer;
let browser: Browser;

describe('dashboard: delivery and branding', {
  skip: hasChromium ? false : 'no Chromium at /usr/bin/chromium',
}, () => {
  before(async () => {
    mail = await startMailServer();
    server = await startTestServer({ env: { SMTP_URL: mail.url } });
    assert.equal(
      (await server.admin.call('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' })).status,
      200,
    );
    const csv = 'cardNumber,pinCode,faceValue\n9400000000000001,111111,25\n9400000000000002,222222,25\n';
    assert.equal((await server.admin.call('POST', `/products/${AMAZON_US}/stock`, { csv })).status, 200);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await mail?.close();
  });

  test('branding saved and previewed; the delivery log; Resend to a corrected address', async () => {
    const client = await server.caller('giftcards', 'live', { fund: 1000 });
    const user = await server.runtime.services.web.users.createWithPassword(
      'customer',
      'shop@example.com',
      client.account.accountId,
    );
    const context = await newContext(browser, { url: server.url } as ServerProcess);
    const page = await context.newPage();
    await signIn(page, '/dashboard', 'shop@example.com', user.password);

    await page.goto('/dashboard/#/branding');
    await page.getByLabel(/Display name/).fill('Gift Shop');
    await page.getByLabel('Footer line').fill('Thanks for shopping with us');
    await page.getByText('Gift Shop · Thanks for shopping with us').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();

    const placed = await client.post('/orders', {
      productId: AMAZON_US,
      quantity: 1,
      unitPrice: 25,
      senderName: 'Ada',
      recipientEmail: 'typo@exmaple.org',
    });
    assert.equal(placed.status, 200, placed.text);
    await server.runtime.services.worker.runDue();
    const first = mail.received.find((r) => r.envelopeTo.includes('typo@exmaple.org'));
    assert.equal(first?.mail.from?.value[0].name, 'Gift Shop', 'the display name is the sender');
    assert.match(first?.mail.text ?? '', /Gift Shop · Thanks for shopping with us/);

    await page.goto('/dashboard/#/transactions?environment=live');
    await page
      .getByRole('link', { name: `Delivery of gift card order ${placed.body.transactionId}` })
      .click();
    await page.getByRole('cell', { name: 'typo@exmaple.org' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByLabel('Corrected e-mail (optional)').fill('grace@example.org');
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('cell', { name: 'grace@example.org' }).waitFor();
    await server.runtime.services.worker.runDue();
    assert.ok(
      mail.received.some((r) => r.envelopeTo.includes('grace@example.org')),
      'resent to the corrected address',
    );
    await context.close();
  });

  test("the console's Outbox shows the messages as their recipients read them, links masked", async () => {
    const operator = await server.runtime.services.web.users.createWithPassword(
      'operator',
      'ops@example.com',
      null,
    );
    const context = await newContext(browser, { url: server.url } as ServerProcess);
    const page = await context.newPage();
    await signIn(page, '/console', 'ops@example.com', operator.password);
    await page.goto('/console/#/outbox');
    const message = page.getByRole('article').filter({ hasText: 'grace@example.org' });
    await message.getByRole('heading', { name: 'Ada sent you an Amazon gift card' }).waitFor();
    const text = await message.locator('pre.message-text').textContent();
    assert.match(text ?? '', /Open your gift card: https:\/\/localhost\/r\/••••••/);
    assert.doesNotMatch(await page.content(), /\/r\/[A-Za-z0-9_-]{32}/, 'no live link on the page');
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  });
});

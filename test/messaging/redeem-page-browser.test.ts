import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { hasChromium, launchBrowser, seriousViolations } from '../web/browser.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { type Smsc, startSmsc } from './smsc.ts';
import { AMAZON_US, stockOrder } from './stock-orders.ts';

// Issue 26: the redeem page in Debian's Chromium, with JavaScript off as a recipient's locked-down
// phone may have it: two visits reveal nothing, the button reveals once (recorded), the SMS-code
// path, axe without serious violations, and no sideways scrolling at 390 px.
let server: TestServer;
let mail: MailServer;
let smsc: Smsc;
let browser: Browser;

async function liveOrder(body: Record<string, unknown>) {
  const client = await server.caller('giftcards', 'live', { fund: 1000 });
  const { id, card } = await stockOrder(server, client, body);
  await server.runtime.services.worker.runDue();
  const to = body.recipientEmail as string;
  const m = mail.received.find((r) => r.envelopeTo.includes(to));
  const path = /https:\/\/localhost(\/r\/[A-Za-z0-9_-]{32})/.exec(m?.mail.text ?? '')?.[1];
  assert.ok(path, 'the e-mail has the link');
  return { id, card, path };
}

const reveals = (id: number) =>
  withMessagingTables(server.db.kysely)
    .selectFrom('redeem_reveals')
    .selectAll()
    .where('transaction_id', '=', id)
    .execute();

async function phoneContext(): Promise<BrowserContext> {
  // a phone's screen, and no JavaScript at all: the page must work with plain forms
  return browser.newContext({
    ignoreHTTPSErrors: true,
    baseURL: server.url,
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
  });
}

describe('the redeem page in Chromium', {
  skip: hasChromium ? false : 'no Chromium at /usr/bin/chromium',
}, () => {
  before(async () => {
    mail = await startMailServer();
    smsc = await startSmsc();
    server = await startTestServer({ env: { SMTP_URL: mail.url, SMS_URL: smsc.url } });
    assert.equal(
      (await server.admin.call('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' })).status,
      200,
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await mail?.close();
    await smsc?.close();
  });

  test('two visits reveal nothing; the button reveals once; axe clean; fits 390 px', async () => {
    const { id, card, path } = await liveOrder({ recipientEmail: 'browser@example.org' });
    const context = await phoneContext();
    const page = await context.newPage();
    for (let i = 0; i < 2; i++) {
      const response = await page.goto(path);
      assert.equal(response?.status(), 200);
      assert.ok(!(await page.content()).includes(card.cardNumber), 'a visit shows no code');
      await page.getByRole('heading', { name: 'A gift card for you' }).waitFor();
    }
    assert.equal((await reveals(id)).length, 0);
    // axe runs through the DevTools protocol, which neither the CSP nor the JavaScript switch governs
    const axeContext = await browser.newContext({
      ignoreHTTPSErrors: true,
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
    });
    const axePage = await axeContext.newPage();
    await axePage.goto(path);
    assert.deepEqual(await seriousViolations(axePage), []);
    const overflow = await axePage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 390 px (${overflow} px too wide)`);
    await axeContext.close();

    await page.getByRole('button', { name: 'Show my gift card code' }).click();
    await page.getByRole('heading', { name: 'Your code' }).waitFor();
    assert.ok((await page.content()).includes(card.cardNumber), 'the POST reveals the code');
    assert.ok((await page.content()).includes(card.pinCode));
    assert.equal((await reveals(id)).length, 1, 'one reveal recorded');
    await context.close();
  });

  test('with a phone: the page texts a one-time code and reveals with it', async () => {
    const { id, card, path } = await liveOrder({
      recipientEmail: 'phone@example.org',
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550199' },
    });
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto(path);
    await page.getByText('number ending 99').first().waitFor();
    const before = smsc.submitted.length;
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const input = page.getByLabel('Code we texted to the number ending 99');
    await input.waitFor();
    await server.runtime.services.worker.runDue();
    const code = /^(\d{6}) is your code/.exec(smsc.submitted.slice(before)[0]?.text ?? '')?.[1];
    assert.ok(code, 'the SMS carries the code');
    await input.fill(code);
    await page.getByRole('button', { name: 'Show my gift card code' }).click();
    await page.getByRole('heading', { name: 'Your code' }).waitFor();
    assert.ok((await page.content()).includes(card.cardNumber));
    assert.equal((await reveals(id)).length, 1);
    await context.close();
  });
});

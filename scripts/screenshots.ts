/**
 * Takes the screenshots of the dashboard and console pages in docs/screenshots/ with the browser
 * suite's setup (Debian's Chromium driven by playwright-core, a real server process on a fresh
 * PostgreSQL database): it signs in as the bootstrap sandbox user and as an operator, places a few
 * sandbox orders so the pages have something to show, and saves one PNG per page.
 *
 *   npx tsx scripts/screenshots.ts
 *   npx tsx scripts/screenshots.ts recipient   # only a gift card recipient's e-mail and redeem page
 *   npx tsx scripts/screenshots.ts webhooks    # only the Webhooks page, its delivery log and a transaction's page
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AUDIENCES } from '../test/harness/client.ts';
import { type ServerProcess, startServerProcess } from '../test/harness/server-process.ts';
import { ensurePostgresTemplate } from '../test/harness/templates.ts';
import { startWebhookReceiver } from '../test/harness/webhook-receiver.ts';
import { startMailServer } from '../test/messaging/mail-server.ts';
import {
  acceptInvitation,
  hasChromium,
  launchBrowser,
  newContext,
  sandboxUser,
  signIn,
} from '../test/web/browser.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');

async function placeOrders(server: ServerProcess) {
  const giftcards = await server.token(AUDIENCES.giftcardsSandbox);
  const topups = await server.token(AUDIENCES.topupsSandbox);
  for (const [i, productId] of [11, 13, 11, 25, 12].entries()) {
    await server.http.post(
      '/giftcards-sandbox/orders',
      {
        productId,
        quantity: 1 + (i % 2),
        unitPrice: productId === 12 ? 30 : 10,
        senderName: 'Ada',
        customIdentifier: `shop-order-${i + 1}`,
      },
      { token: giftcards },
    );
  }
  for (const [i, number] of ['08031234567', '08039999992', '08035550100'].entries()) {
    await server.http.post(
      '/topups-sandbox/topups',
      {
        operatorId: 1001,
        amount: 5 + i * 5,
        recipientPhone: { countryCode: 'NG', number },
        customIdentifier: `topup-${i + 1}`,
      },
      { token: topups },
    );
  }
}

/** An account in euros with one order, so the revenue chart converts two currencies to USD. */
async function placeEuroOrder(server: ServerProcess) {
  const eur = await server.admin.ok('POST', '/accounts', {
    name: 'Boutique Lyon',
    currency: 'EUR',
    country: 'FR',
    environment: 'sandbox',
    fund: 500,
  });
  const token = await server.http.post('/auth/oauth/token', {
    client_id: eur.clientId,
    client_secret: eur.clientSecret,
    grant_type: 'client_credentials',
    audience: AUDIENCES.giftcardsSandbox,
  });
  await server.http.post(
    '/giftcards-sandbox/orders',
    { productId: 11, quantity: 2, unitPrice: 10, senderName: 'Léa', customIdentifier: 'lyon-1' },
    { token: token.body.access_token },
  );
}

/** A few codes in the live stock of one product, so the console's stock levels show something. */
async function importStock(server: ServerProcess) {
  const codes = Array.from(
    { length: 6 },
    (_, i) => `60110009901394${String(10 + i)},${String(1000 + i)},${i < 4 ? 150 : 300}`,
  );
  await server.admin.ok('POST', '/products/1076/stock', {
    csv: `cardNumber,pinCode,faceValue\n${codes.join('\n')}\n`,
  });
}

/**
 * What a gift card's recipient sees: the e-mail (as a mail client shows its HTML part, from a real
 * SMTP server) and the redeem page at a phone's width, before and after the reveal; and the console's
 * Outbox with it.
 */
async function recipientScreenshots(browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const mail = await startMailServer();
  const server = await startServerProcess({ SMTP_URL: mail.url, MESSAGE_POLL_MS: '200' });
  try {
    await server.admin.ok('POST', '/products/1840/stock', {
      csv: 'cardNumber,pinCode,faceValue\n6011000990139424,4412,50\n',
    });
    await server.admin.ok('PUT', '/products/1840/provider', { provider: 'stock' });
    const shop = await server.admin.ok('POST', '/accounts', {
      name: 'Gift Shop',
      currency: 'USD',
      country: 'US',
      environment: 'live',
      fund: 500,
    });
    const token = await server.http.post('/auth/oauth/token', {
      client_id: shop.clientId,
      client_secret: shop.clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsLive,
    });
    await server.http.post(
      '/giftcards/orders',
      { productId: 1840, quantity: 1, unitPrice: 50, senderName: 'Ada', recipientEmail: 'grace@example.org' },
      { token: token.body.access_token },
    );
    for (let i = 0; i < 100 && mail.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    const email = mail.received[0];
    if (!email) throw new Error('no e-mail arrived');
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      baseURL: server.url,
      viewport: { width: 640, height: 800 },
    });
    const page = await context.newPage();
    await page.setContent(String(email.mail.html));
    await page.screenshot({ path: join(OUT, 'recipient-email.png'), fullPage: true });
    const path = /https:\/\/localhost(\/r\/[\w-]+)/.exec(email.mail.text ?? '')?.[1] as string;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await page.screenshot({ path: join(OUT, 'redeem-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Show my gift card code' }).click();
    await page.getByRole('heading', { name: 'Your code' }).waitFor();
    await page.screenshot({ path: join(OUT, 'redeem-page-revealed.png'), fullPage: true });
    await context.close();
    // the console's Outbox, where an operator sees that e-mail go (its link masked)
    const invited = await server.admin.ok('POST', '/operators', { email: 'ops@example.com' });
    const operator = await newContext(browser, server);
    const ops = await operator.newPage();
    await acceptInvitation(ops, server, invited.link, 'operator passphrase');
    await signIn(ops, '/console', 'ops@example.com', 'operator passphrase');
    await ops.goto('/console/#/outbox');
    await ops.locator('article.message').first().waitFor();
    await ops.screenshot({ path: join(OUT, 'console-outbox.png'), fullPage: true });
    await operator.close();
  } finally {
    await server.cleanup();
    await mail.close();
  }
}

/**
 * The dashboard's Webhooks page (an endpoint, a test event delivered to a local receiver), its
 * delivery log, and one gift card order's own page at 1280 px and at a phone's width.
 */
async function selfServiceScreenshots(browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const receiver = await startWebhookReceiver();
  const server = await startServerProcess({
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CA_FILE: receiver.caFile,
    WEBHOOK_POLL_MS: '200',
  });
  try {
    const user = await sandboxUser(server);
    const page = await (await newContext(browser, server)).newPage();
    await signIn(page, '/dashboard', user.email, user.password);
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    const order = await server.http.post(
      '/giftcards-sandbox/orders',
      {
        productId: 11,
        quantity: 2,
        unitPrice: 10,
        senderName: 'Ada',
        customIdentifier: 'shop-order-42',
        recipientEmail: 'grace@example.org',
      },
      { token, headers: { 'x-request-id': 'req-shop-order-42' } },
    );
    await page.goto('/dashboard/#/webhooks?environment=sandbox');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('giftcard.order.successful').check();
    await page.getByLabel('topup.successful').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: /^Send test event to/ }).click();
    for (let i = 0; i < 50 && receiver.received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    await page.screenshot({ path: join(OUT, 'dashboard-webhooks.png'), fullPage: true });
    await page.getByRole('link', { name: /^Deliveries of/ }).click();
    await page.getByRole('cell', { name: 'DELIVERED' }).first().waitFor();
    await page.screenshot({ path: join(OUT, 'dashboard-webhook-deliveries.png'), fullPage: true });
    await page.goto(
      `/dashboard/#/transaction?environment=sandbox&product=giftcards&id=${order.body.transactionId}`,
    );
    await page.getByText('req-shop-order-42').waitFor();
    await page.screenshot({ path: join(OUT, 'dashboard-transaction.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(OUT, 'dashboard-transaction-390.png'), fullPage: true });
  } finally {
    await server.cleanup();
    await receiver.close();
  }
}

async function main() {
  if (!hasChromium) throw new Error('chromium is not installed at /usr/bin/chromium');
  const only = { recipient: recipientScreenshots, webhooks: selfServiceScreenshots }[process.argv[2] ?? ''];
  if (only) {
    await ensurePostgresTemplate();
    const browser = await launchBrowser();
    try {
      await mkdir(OUT, { recursive: true });
      await only(browser);
      process.stdout.write(`screenshots saved in ${OUT}\n`);
    } finally {
      await browser.close();
    }
    return;
  }
  await ensurePostgresTemplate();
  const [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  try {
    await mkdir(OUT, { recursive: true });
    await placeOrders(server);
    await placeEuroOrder(server);
    // one deactivated top-up operator, so the operators page shows both states
    await server.admin.ok('POST', '/topup-operators/1010/deactivate');
    await importStock(server);
    const user = await sandboxUser(server);
    const customer = await newContext(browser, server);
    const page = await customer.newPage();
    await page.goto('/dashboard/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: join(OUT, 'sign-in.png') });
    await signIn(page, '/dashboard', user.email, user.password);
    for (const name of ['overview', 'credentials', 'transactions', 'balance', 'docs', 'team', 'security']) {
      await page.goto(`/dashboard/#/${name}?environment=sandbox`);
      await page.locator('main h1 + div').waitFor();
      if (name === 'security') {
        // the enrolment step: the QR code, the base32 secret and the otpauth URI (of a throwaway database)
        await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
        await page.getByTestId('totp-secret').waitFor();
      }
      if (name === 'transactions') {
        await page
          .getByRole('button', { name: /^Show codes/ })
          .first()
          .click();
        await page.locator('.code-list').first().waitFor();
      }
      await page.screenshot({ path: join(OUT, `dashboard-${name}.png`), fullPage: true });
    }

    const invited = await server.admin.ok('POST', '/operators', { email: 'ops@example.com' });
    const operator = await newContext(browser, server);
    const ops = await operator.newPage();
    await acceptInvitation(ops, server, invited.link, 'operator passphrase');
    await signIn(ops, '/console', 'ops@example.com', 'operator passphrase');
    await ops.goto(`/console/#/account?id=${server.credentials.accountId}`);
    const fund = ops.getByRole('form', { name: 'Fund' });
    await fund.getByLabel('Environment').selectOption('sandbox');
    await fund.getByLabel('Amount').fill('250');
    await fund.getByRole('button', { name: 'Fund' }).click();
    await ops.getByRole('dialog').getByRole('button', { name: 'Fund' }).click();
    await fund.getByText('the new sandbox balance is').waitFor();
    // bank details, so the customer's Add funds page has something to show and the queue a transfer
    await server.admin.ok('PUT', '/bank-details/USD', {
      accountHolder: 'Airgift Operations Ltd',
      accountNumber: 'GB33 BUKB 2020 1555 5555 55',
      bic: 'BUKBGB22',
      bankName: 'Example Bank',
      instructions: 'Faster Payments or SWIFT; charges are yours.',
    });
    await page.goto('/dashboard/#/add-funds?environment=live');
    await page.locator('main h1 + div').waitFor();
    await page.screenshot({ path: join(OUT, 'dashboard-add-funds.png'), fullPage: true });
    for (const [name, path] of [
      ['accounts', 'accounts'],
      ['account', `account?id=${server.credentials.accountId}`],
      ['transactions', 'transactions?environment=sandbox'],
      ['reports', 'reports?environment=sandbox'],
      ['catalogue', 'catalogue'],
      ['operators', 'operators?search=NG'],
      ['audit', 'audit'],
      ['funding', 'funding'],
    ]) {
      await ops.goto(`/console/#/${path}`);
      await ops.locator('main h1 + div').waitFor();
      await ops.screenshot({ path: join(OUT, `console-${name}.png`), fullPage: true });
    }
    process.stdout.write(`screenshots saved in ${OUT}\n`);
  } finally {
    await browser.close();
    await server.cleanup();
  }
}

await main();

/**
 * Takes the screenshots of the dashboard and console pages in docs/screenshots/ with the browser
 * suite's setup (Debian's Chromium driven by playwright-core, a real server process on a fresh
 * PostgreSQL database): it signs in as the bootstrap sandbox user and as an operator, places a few
 * sandbox orders so the pages have something to show, and saves one PNG per page.
 *
 *   npx tsx scripts/screenshots.ts
 *   npx tsx scripts/screenshots.ts recipient   # only a gift card recipient's e-mail and redeem page
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  acceptInvitation,
  admin,
  hasChromium,
  launchBrowser,
  newContext,
  sandboxUser,
  signIn,
} from '../test/dashboard/browser.ts';
import { AUDIENCES, type ServerProcess, startServerProcess } from '../test/harness/server-process.ts';
import { ensurePostgresTemplate } from '../test/harness/templates.ts';
import { startMailServer } from '../test/messaging/mail-server.ts';

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
  const eur = await admin(server, 'POST', '/accounts', {
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
  await admin(server, 'POST', '/products/1076/stock', {
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
    await admin(server, 'POST', '/products/1840/stock', {
      csv: 'cardNumber,pinCode,faceValue\n6011000990139424,4412,50\n',
    });
    await admin(server, 'PUT', '/products/1840/provider', { provider: 'stock' });
    const shop = await admin(server, 'POST', '/accounts', {
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
    const invited = await admin(server, 'POST', '/operators', { email: 'ops@example.com' });
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

async function main() {
  if (!hasChromium) throw new Error('chromium is not installed at /usr/bin/chromium');
  if (process.argv[2] === 'recipient') {
    await ensurePostgresTemplate();
    const browser = await launchBrowser();
    try {
      await mkdir(OUT, { recursive: true });
      await recipientScreenshots(browser);
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
    await admin(server, 'POST', '/topup-operators/1010/deactivate');
    await importStock(server);
    const user = await sandboxUser(server);
    const customer = await newContext(browser, server);
    const page = await customer.newPage();
    await page.goto('/dashboard/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: join(OUT, 'sign-in.png') });
    await signIn(page, '/dashboard', user.email, user.password);
    for (const name of ['overview', 'credentials', 'transactions', 'balance', 'docs', 'security']) {
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

    const invited = await admin(server, 'POST', '/operators', { email: 'ops@example.com' });
    const operator = await newContext(browser, server);
    const ops = await operator.newPage();
    await acceptInvitation(ops, server, invited.link, 'operator passphrase');
    await signIn(ops, '/console', 'ops@example.com', 'operator passphrase');
    await ops.goto(`/console/#/account?id=${server.credentials.accountId}`);
    const fund = ops.getByRole('form', { name: 'Fund' });
    await fund.getByLabel('Environment').selectOption('sandbox');
    await fund.getByLabel('Amount').fill('250');
    await fund.getByRole('button', { name: 'Fund' }).click();
    await fund.getByText('new balance').waitFor();
    for (const [name, path] of [
      ['accounts', 'accounts'],
      ['account', `account?id=${server.credentials.accountId}`],
      ['transactions', 'transactions?environment=sandbox'],
      ['reports', 'reports?environment=sandbox'],
      ['catalogue', 'catalogue'],
      ['operators', 'operators?search=NG'],
      ['audit', 'audit'],
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

/**
 * Takes the screenshots of the dashboard and console pages in docs/screenshots/ with the browser
 * suite's setup (Debian's Chromium driven by playwright-core, a real server process on a fresh
 * PostgreSQL database): it signs in as the bootstrap sandbox user and as an operator, places a few
 * sandbox orders so the pages have something to show, and saves one PNG per page.
 *
 *   npx tsx scripts/screenshots.ts
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

async function main() {
  if (!hasChromium) throw new Error('chromium is not installed at /usr/bin/chromium');
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

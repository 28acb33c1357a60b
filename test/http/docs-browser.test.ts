import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { TestAccount } from '../harness/client.ts';
import { freePort, startTestServer, type TestServer } from '../harness/server.ts';

// Issue 12: the reference pages in a real browser (Debian's chromium driven by playwright-core):
// every operation rendered, no console error (a CSP violation is one), axe-core finds no serious or
// critical accessibility violation (no rule exempted), and the try-it works end to end: credentials in
// the auth box -> a sandbox token with its audience -> real requests whose real answers the page shows.
// Skipped, saying so, where chromium is not installed.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `chromium not found at ${CHROMIUM} (apt-get install chromium)`;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let browser: Browser;
/** The page's origin: the bases must name the port the browser reaches, so the try-it calls this server. */
let origin: string;

before(async () => {
  if (skip) return;
  const port = await freePort();
  origin = `https://localhost:${port}`;
  server = await startTestServer({ port, env: { PUBLIC_URL: origin } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page, collecting console errors and uncaught exceptions. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1400, height: 1000 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const answer = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  assert.equal(answer?.status(), 200, path);
  return { page, errors };
}

/**
 * Serious and critical axe violations, none exempted: Scalar's own leftovers are fixed by the page's
 * served patch (src/http/reference-a11y.ts), so a new one fails here.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (result.violations as { id: string; impact: string; nodes: unknown[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${JSON.stringify(v.nodes.slice(0, 2))}`);
}

for (const base of ['/giftcards-sandbox', '/topups-sandbox']) {
  test(`${base}/docs renders every operation, without console errors or serious axe violations`, {
    skip,
  }, async () => {
    const doc = (await server.http.get(`${base}/openapi.json`)).body;
    const summaries = Object.values<any>(doc.paths).flatMap((m) =>
      Object.values<any>(m).map((op) => op.summary),
    );
    const { page, errors } = await open(`${base}/docs`);
    await page.waitForSelector(`text=${summaries[0]}`, { timeout: 30_000 });
    const text = await page.evaluate(() => document.body.innerText);
    const missing = summaries.filter((s: string) => !text.includes(s));
    assert.deepEqual(missing, [], 'every operation is on the page');
    assert.deepEqual(errors, []);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  test(`${base}/docs/getting-started has no console errors or serious axe violations`, { skip }, async () => {
    const { page, errors } = await open(`${base}/docs/getting-started`);
    assert.match(await page.title(), /Getting started/);
    assert.deepEqual(errors, []);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });
}

test('/docs/errors has no console errors or serious axe violations', { skip }, async () => {
  const { page, errors } = await open('/docs/errors');
  assert.equal(await page.locator('tr#OPERATOR_NOT_IN_SERVICE').count(), 1);
  assert.deepEqual(errors, []);
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

/** Puts the credentials in the reference's auth box and asks the token service (Authorize). */
async function authorize(page: Page, account: TestAccount): Promise<void> {
  await page.getByRole('textbox', { name: 'Client ID' }).first().fill(account.clientId);
  await page.getByLabel('Client Secret').first().fill(account.clientSecret);
  const answer = page.waitForResponse((r) => r.url().endsWith('/auth/oauth/token'));
  await page.getByRole('button', { name: 'Authorize' }).first().click();
  const token = await answer;
  assert.equal(token.status(), 200, await token.text());
}

interface TryItAnswer {
  status: number;
  body: any;
  /** The response body as the page shows it. */
  shown: string;
}

/**
 * Opens an operation from the sidebar, its try-it ("Test Request"), optionally replaces the request
 * body, presses Send and returns what the server answered and what the page shows of it.
 */
async function tryIt(page: Page, summary: string, method: string, path: string, body?: unknown) {
  await page.locator('aside').first().getByText(summary, { exact: true }).first().click();
  const escaped = path.replace(/[{}/]/g, (c) => `\\${c}`);
  await page.getByRole('button', { name: new RegExp(`Test Request.*${method} ${escaped}\\)?$`) }).click();
  const dialog = page.getByRole('dialog');
  if (body !== undefined) {
    await dialog.locator('.cm-content[contenteditable="true"]').last().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify(body));
  }
  const pattern = new RegExp(`${path.replace(/\{\w+\}/g, '[^/]+')}$`);
  const answer = page.waitForResponse(
    (r) => r.request().method() === method.toUpperCase() && pattern.test(new URL(r.url()).pathname),
  );
  await dialog.getByRole('button', { name: /^Send/ }).first().click();
  const response = await answer;
  const viewer = dialog.locator('.cm-content[contenteditable="false"]').last();
  await viewer.waitFor();
  const result: TryItAnswer = {
    status: response.status(),
    body: await response.json(),
    shown: await viewer.innerText(),
  };
  return result;
}

/**
 * The try-it on `base`/docs, authorized as a new sandbox account: `browse` tries what comes before an
 * order, then the order operation (`body` with a new customIdentifier) answers 200 and shows the
 * transaction, which is real: the server reports it at `reportedAt` to the account's own token. No
 * console error, and no serious axe violation with the try-it open after a request.
 */
async function tryAnOrder(
  base: '/giftcards-sandbox' | '/topups-sandbox',
  browse: (page: Page) => Promise<void>,
  order: { summary: string; path: string; body: Record<string, unknown>; reportedAt: string },
) {
  const account = await server.admin.createAccount({ environment: 'sandbox' });
  const { page, errors } = await open(`${base}/docs`);
  await authorize(page, account);
  await browse(page);

  const customIdentifier = `try-it-${Date.now()}`;
  const placed = await tryIt(page, order.summary, 'post', order.path, { ...order.body, customIdentifier });
  assert.equal(placed.status, 200, JSON.stringify(placed.body));
  assert.match(placed.shown, new RegExp(`"transactionId": ${placed.body.transactionId}`));
  assert.match(placed.shown, new RegExp(`"customIdentifier": "${customIdentifier}"`));
  const token = await server.admin.token(account, `${origin}${base}`);
  const reported = await server.http.get(`${base}${order.reportedAt}/${placed.body.transactionId}`, {
    token,
  });
  assert.equal(reported.status, 200);
  assert.equal(reported.body.customIdentifier, customIdentifier);

  assert.deepEqual(errors, []);
  assert.deepEqual(await seriousViolations(page), [], 'with the try-it open, after a request');
  await page.context().close();
}

test('try-it on /giftcards-sandbox/docs: a token from the auth box, a product and an order from the sandbox', {
  skip,
}, async () => {
  await tryAnOrder(
    '/giftcards-sandbox',
    async (page) => {
      const product = await tryIt(page, 'Get a product', 'get', '/products/{productId}');
      assert.equal(product.status, 200, JSON.stringify(product.body));
      assert.match(product.shown, new RegExp(`"productId": ${product.body.productId}`));
      assert.match(product.shown, new RegExp(`"productName": "${product.body.productName}"`));
      await page.keyboard.press('Escape');
    },
    {
      summary: 'Order gift cards',
      path: '/orders',
      body: { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Try-it test' },
      reportedAt: '/reports/transactions',
    },
  );
});

test('try-it on /topups-sandbox/docs: a token from the auth box, an operator and a top-up from the sandbox', {
  skip,
}, async () => {
  await tryAnOrder(
    '/topups-sandbox',
    async (page) => {
      const operator = await tryIt(page, 'Get an operator', 'get', '/operators/{operatorId}');
      assert.equal(operator.status, 200, JSON.stringify(operator.body));
      assert.match(operator.shown, new RegExp(`"operatorId": ${operator.body.operatorId}`));
      await page.keyboard.press('Escape');
    },
    {
      summary: 'Send a top-up',
      path: '/topups',
      body: { operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031234567' } },
      reportedAt: '/topups/reports/transactions',
    },
  );
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 12: the reference pages in a real browser (Debian's chromium driven by playwright-core):
// every operation rendered, no console error (a CSP violation is one), and axe-core finds no
// serious or critical accessibility violation. Skipped, saying so, where chromium is not installed.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `chromium not found at ${CHROMIUM} (apt-get install chromium)`;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page, collecting console errors and uncaught exceptions. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const answer = await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
  assert.equal(answer?.status(), 200, path);
  return { page, errors };
}

/**
 * Violations inside Scalar's own components that this project cannot fix from its configuration
 * (its markup: aria attributes on its tree, unnamed icon buttons, nested interactive rows). They are
 * listed so that any other serious violation, or one of these on our own pages, still fails.
 */
const SCALAR_KNOWN = new Set([
  'aria-allowed-attr',
  'aria-input-field-name',
  'aria-required-children',
  'button-name',
  'nested-interactive',
  'scrollable-region-focusable',
]);

async function seriousViolations(page: Page, known = new Set<string>()): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (result.violations as { id: string; impact: string; nodes: unknown[] }[])
    .filter((v) => (v.impact === 'serious' || v.impact === 'critical') && !known.has(v.id))
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
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
    assert.deepEqual(await seriousViolations(page, SCALAR_KNOWN), []);
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

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startTestServer } from '../test/harness/server.ts';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const server = await startTestServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const which = process.argv[2];
const doc = '/giftcards-sandbox/openapi.json';
const pages: Record<string, string> = {
  rapidoc: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title><script type="module" src="/x/asset.js"></script></head><body><rapi-doc spec-url="${doc}" render-style="read" allow-try="true"></rapi-doc></body></html>`,
  elements: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title><script src="/x/asset.js"></script><link rel="stylesheet" href="/x/asset.css"></head><body><elements-api apiDescriptionUrl="${doc}" router="hash" layout="sidebar"></elements-api></body></html>`,
};
const assets: Record<string, string> = {
  rapidoc: '/tmp/docs-alt/node_modules/rapidoc/dist/rapidoc-min.js',
  elements: '/tmp/docs-alt/node_modules/@stoplight/elements/web-components.min.js',
};
const context = await browser.newContext({ ignoreHTTPSErrors: true });
const page = await context.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text().slice(0, 200)); });
await page.route('**/x/page', (r) => r.fulfill({ contentType: 'text/html', body: pages[which] }));
await page.route('**/x/asset.js', (r) => r.fulfill({ contentType: 'text/javascript', body: readFileSync(assets[which], 'utf8') }));
await page.route('**/x/asset.css', (r) => r.fulfill({ contentType: 'text/css', body: readFileSync('/tmp/docs-alt/node_modules/@stoplight/elements/styles.min.css', 'utf8') }));
await page.goto(`${server.url}/x/page`, { waitUntil: 'networkidle' });
await page.waitForTimeout(3000);
await page.screenshot({ path: `/tmp/docs-${which}.png` });
await page.evaluate(AXE);
const result: any = await page.evaluate(async () => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
for (const v of result.violations) {
  console.log(`== ${v.id} ${v.impact} ${v.nodes.length}: ${v.help}`);
  for (const n of v.nodes.slice(0, Number(process.env.N ?? 3))) console.log('  ', JSON.stringify(n.target), n.html.slice(0, 200));
}
await browser.close(); await server.close();

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startTestServer } from '../test/harness/server.ts';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const server = await startTestServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const path = process.argv[2] ?? '/giftcards-sandbox/docs';
const context = await browser.newContext({ ignoreHTTPSErrors: true });
const page = await context.newPage();
if (process.env.BUNDLE) await page.route('**/docs/assets/scalar.js', (r) => r.fulfill({ contentType: 'text/javascript', body: readFileSync(process.env.BUNDLE!, 'utf8') }));
page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
await page.waitForTimeout(1500); await page.screenshot({ path: "/tmp/docs-shot.png" }); console.log((await page.evaluate(() => document.body.innerText)).slice(0, 300));
await page.evaluate(AXE);
const result: any = await page.evaluate(async () => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
for (const v of result.violations) {
  if (v.impact !== 'serious' && v.impact !== 'critical') continue;
  console.log(`== ${v.id} ${v.impact} ${v.nodes.length}: ${v.help}`);
  for (const n of v.nodes.slice(0, Number(process.env.N ?? 4))) console.log('  ', JSON.stringify(n.target), n.html.slice(0, 300), '\n     ', n.failureSummary?.replace(/\n/g, ' | ').slice(0, 300));
}
await browser.close(); await server.close();

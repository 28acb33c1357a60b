import { chromium } from 'playwright-core';
import { startTestServer } from '../test/harness/server.ts';
const server = await startTestServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ ignoreHTTPSErrors: true });
const page = await context.newPage();
await page.goto(`${server.url}${process.argv[2]}`, { waitUntil: 'networkidle' });
await page.waitForTimeout(3000);
for (const sel of process.argv.slice(3)) {
  const html = await page.evaluate((s) => [...document.querySelectorAll(s)].slice(0, 2).map((e) => e.outerHTML.slice(0, 3000)), sel);
  console.log('##', sel, '\n', html.join('\n---\n'));
}
await browser.close(); await server.close();

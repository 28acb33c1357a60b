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
await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
await page.waitForTimeout(1500);
await page.evaluate(AXE);
const result: any = await page.evaluate(async () => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
for (const v of result.violations) {
  if (v.impact !== 'serious' && v.impact !== 'critical') continue;
  console.log(`== ${v.id} ${v.impact} ${v.nodes.length}`);
  const seen = new Set();
  for (const n of v.nodes) {
    const key = n.html.replace(/scalar-refs-\d+-\d+/g, 'R').replace(/id="[^"]*"/g, '').replace(/>[\s\S]*$/, '>').slice(0, 400);
    const rel = (n.any.concat(n.all, n.none)).flatMap((c: any) => c.relatedNodes.map((r: any) => r.html.slice(0, 200)));
    const k2 = key + rel.join();
    if (seen.has(key)) continue; seen.add(key);
    console.log('  ', key, '\n    REL', rel.slice(0,2));
  }
}
await browser.close(); await server.close();

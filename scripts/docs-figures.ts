import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_DATA_DIR } from '../src/modules/topups/catalog/operator-catalog.ts';
import { ADMIN_KEY, openInProcessApp } from './in-process-app.ts';

/**
 * The counts the docs quote, counted from what the server serves, so they can be checked
 * (`npm run docs:figures`): operations and paths per product (from the published documents) and the
 * gift card catalog (docs/giftcards.md, which quotes it without the sandbox's test brand and
 * products), operators (all, inactive, countries: docs/topups.md).
 */
const app = await openInProcessApp();
const lines: string[] = [];
for (const [name, base] of [
  ['gift cards (docs/giftcards.md)', '/giftcards-sandbox'],
  ['top-ups (docs/topups.md)', '/topups-sandbox'],
]) {
  const doc = await app.get(`${base}/openapi.json`);
  const operations = Object.values<Record<string, unknown>>(doc.paths).reduce(
    (n, methods) => n + Object.keys(methods).length,
    0,
  );
  lines.push(`${name}: ${Object.keys(doc.paths).length} paths, ${operations} operations`);
}
const operators = JSON.parse(readFileSync(join(OPERATOR_DATA_DIR, 'operators.json'), 'utf8')) as {
  status: boolean;
  countryCode: string;
}[];
const inactive = operators.filter((o) => !o.status).length;
const countries = new Set(operators.map((o) => o.countryCode)).size;
lines.push(
  `operators (docs/topups.md): ${operators.length} in the data file, ${inactive} of them inactive (not listed), ${operators.length - inactive} listed, in ${countries} countries`,
);
const exported = await app.get('/admin/catalog/export', { authorization: `Bearer ${ADMIN_KEY}` });
const catalogCountries = new Set((exported.products as { countryCode: string }[]).map((p) => p.countryCode))
  .size;
lines.push(
  `catalog export (docs/giftcards.md): ${exported.products.length} products, ${exported.brands.length} brands, ${exported.categories.length} categories, in ${catalogCountries} countries (the sandbox test brand and products included)`,
);
await app.close();
process.stdout.write(`${lines.join('\n')}\n`);

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openInProcessApp } from './in-process-app.ts';

/**
 * Writes the published OpenAPI documents to a folder, taken from the app itself (app.inject: no
 * listener, no network). `npm run lint:openapi` lints what it writes.
 *
 * @example
 * tsx scripts/write-openapi.ts .openapi   # .openapi/giftcards.json, .openapi/topups.json, ...
 */
const out = process.argv[2] ?? '.openapi';
const app = await openInProcessApp();
await mkdir(out, { recursive: true });
for (const [kind, base] of [
  ['giftcards', '/giftcards-sandbox'],
  ['topups', '/topups-sandbox'],
  ['auth', '/auth'],
  ['admin', '/admin'],
]) {
  const doc = await app.get(`${base}/openapi.json`);
  await writeFile(join(out, `${kind}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}
await app.close();
process.stdout.write(`OpenAPI documents written to ${out}/\n`);

import { mkdir, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { systemClock } from '../src/lib/clock.ts';
import { openRuntime } from '../src/runtime.ts';

/**
 * Writes the published OpenAPI documents to a folder, taken from the app itself (app.inject: no
 * listener, no network), on a throwaway in-memory database. `npm run lint:openapi` lints what it
 * writes.
 *
 * @example
 * tsx scripts/write-openapi.ts .openapi   # .openapi/giftcards.json, .openapi/topups.json, ...
 */
const out = process.argv[2] ?? '.openapi';
const dataDir = await mkdtemp(join(tmpdir(), 'airgift-openapi-'));
const config = loadConfig({
  // A deployment-like host (reserved .test name): Redocly flags localhost servers.
  PUBLIC_URL: 'https://api.airgift.test',
  DATA_DIR: dataDir,
  ADMIN_KEY: 'openapi-admin-key-0123456789abcdef',
  TOKEN_SIGNING_KEY: 'openapi-signing-key-0123456789abcdef0123456789',
  LOG_LEVEL: 'silent',
  BOOTSTRAP_SANDBOX_ACCOUNT: 'false',
  // app.inject comes from 127.0.0.1 over no TLS: it stands for a TLS-terminating proxy on loopback.
  TRUSTED_PROXIES: '127.0.0.1',
});
const db = await openDatabase({});
const runtime = await openRuntime(config, systemClock, db);
const app = await buildApp({
  config,
  bases: runtime.bases,
  services: runtime.services,
  adminKey: runtime.adminKey,
});
await mkdir(out, { recursive: true });
for (const [kind, base] of [
  ['giftcards', '/giftcards-sandbox'],
  ['topups', '/topups-sandbox'],
  ['auth', '/auth'],
  ['admin', '/admin'],
]) {
  const answer = await app.inject({
    method: 'GET',
    url: `${base}/openapi.json`,
    headers: { host: 'api.airgift.test', 'x-forwarded-proto': 'https' },
  });
  if (answer.statusCode !== 200) throw new Error(`${base}/openapi.json answered ${answer.statusCode}`);
  await writeFile(join(out, `${kind}.json`), `${JSON.stringify(answer.json(), null, 2)}\n`);
}
await app.close();
await runtime.rateLimiter.close();
await db.close();
await rm(dataDir, { recursive: true, force: true });
process.stdout.write(`OpenAPI documents written to ${out}/\n`);

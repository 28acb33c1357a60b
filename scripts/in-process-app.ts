import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { systemClock } from '../src/lib/clock.ts';
import { openRuntime } from '../src/runtime.ts';

/**
 * The production app on a throwaway in-memory database, for scripts that read what the server
 * answers (app.inject: no listener, no network). Requests stand for HTTPS through a proxy on loopback.
 *
 * @example
 * const app = await openInProcessApp();
 * const doc = await app.get('/giftcards-sandbox/openapi.json');
 * await app.close();
 */
export const HOST = 'api.airgift.test';
export const ADMIN_KEY = 'script-admin-key-0123456789abcdef';

export async function openInProcessApp() {
  const dataDir = await mkdtemp(join(tmpdir(), 'airgift-script-'));
  const config = loadConfig({
    // A deployment-like host (reserved .test name): Redocly flags localhost servers.
    PUBLIC_URL: `https://${HOST}`,
    DATA_DIR: dataDir,
    ADMIN_KEY,
    TOKEN_SIGNING_KEY: 'script-signing-key-0123456789abcdef0123456789',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SANDBOX_ACCOUNT: 'false',
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
  return {
    /** Any request; throws unless the answer is 200. */
    async call(
      method: string,
      url: string,
      headers: Record<string, string> = {},
      body?: unknown,
    ): Promise<any> {
      const answer = await app.inject({
        method: method as 'GET',
        url,
        headers: {
          host: HOST,
          'x-forwarded-proto': 'https',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      if (answer.statusCode !== 200)
        throw new Error(`${method} ${url} answered ${answer.statusCode}: ${answer.body}`);
      const parsed = answer.json();
      // A long card number beyond 2^53 would come back altered: refuse to hand on an inexact answer.
      if (JSON.stringify(parsed) !== answer.body)
        throw new Error(`${method} ${url}: the answer does not survive JSON.parse exactly`);
      return parsed;
    },
    get(url: string, headers: Record<string, string> = {}): Promise<any> {
      return this.call('GET', url, headers);
    },
    async close() {
      await app.close();
      await runtime.rateLimiter.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

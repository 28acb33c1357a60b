import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { fromPGlite } from '../../src/db/database.ts';
import { offsetClock } from '../../src/lib/clock.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { loadPgliteTemplate } from '../harness/templates.ts';

// decisions §1: behind a TLS-terminating proxy, X-Forwarded-Proto: https is honoured from configured
// trusted proxies only; from anyone else the request is plain HTTP and refused.
let app: FastifyInstance;
let runtime: Runtime;

const dataDir = mkdtempSync(join(tmpdir(), 'airgift-proxy-test-'));

before(async () => {
  const config = loadConfig({
    TLS: 'off',
    TRUSTED_PROXIES: '10.0.0.7',
    PUBLIC_URL: 'https://api.example.com',
    ADMIN_KEY: 'proxy-test-admin-key-0123456789',
    TOKEN_SIGNING_KEY: 'proxy-test-signing-key-0123456789abcdef',
    DATA_DIR: dataDir,
  });
  runtime = await openRuntime(config, offsetClock(), fromPGlite(await loadPgliteTemplate()));
  app = await buildApp({
    config,
    bases: runtime.bases,
    services: runtime.services,
    adminKey: runtime.adminKey,
  });
});
after(async () => {
  await app.close();
  await runtime.db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (remoteAddress: string, proto?: string) =>
  app.inject({
    method: 'GET',
    url: '/admin/accounts',
    remoteAddress,
    headers: {
      host: 'api.example.com',
      authorization: 'Bearer proxy-test-admin-key-0123456789',
      ...(proto && { 'x-forwarded-proto': proto }),
    },
  });

test('a trusted proxy that says https is served', async () => {
  const answer = await call('10.0.0.7', 'https');
  assert.equal(answer.statusCode, 200);
});

test('the same header from an untrusted address is plain HTTP and refused', async () => {
  const answer = await call('10.0.0.8', 'https');
  assert.equal(answer.statusCode, 400);
  assert.equal(answer.json().errorCode, 'INVALID_REQUEST');
  assert.match(answer.json().message, /HTTPS only/);
});

test('the trusted proxy forwarding plain http is refused', async () => {
  const answer = await call('10.0.0.7', 'http');
  assert.equal(answer.statusCode, 400);
  assert.equal(answer.json().errorCode, 'INVALID_REQUEST');
});

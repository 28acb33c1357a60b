import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, SETTINGS } from '../../src/config.ts';

test('defaults follow PORT and PUBLIC_URL', () => {
  const config = loadConfig({ PORT: '9000' });
  assert.equal(config.port, 9000);
  assert.equal(config.authUrl, 'https://localhost:9000/auth');
  assert.equal(config.topupsSandboxUrl, 'https://localhost:9000/topups-sandbox');
  assert.equal(config.tokenTtlLive, 5_184_000);
  assert.equal(config.tokenTtlSandbox, 86_400);
});

test('every bad value is named in one clear error', () => {
  assert.throws(
    () => loadConfig({ PORT: 'abc', AUTH_URL: 'http://x/auth', TLS: 'off', TOKEN_TTL_SANDBOX: '0' }),
    (error: Error) =>
      error instanceof ConfigError &&
      /PORT: expected a whole number/.test(error.message) &&
      /AUTH_URL: bases are served over HTTPS only/.test(error.message) &&
      /TLS=off: set TRUSTED_PROXIES/.test(error.message) &&
      /TOKEN_TTL_SANDBOX/.test(error.message),
  );
});

test('the README configuration table lists every setting', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  for (const s of Object.values(SETTINGS))
    assert.ok(readme.includes(`\`${s.env}\``), `README lacks ${s.env}`);
});

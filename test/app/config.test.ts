import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  CONFIGURATION_DOC,
  configurationDocument,
  defaultCell,
} from '../../scripts/write-configuration-doc.ts';
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

test('docs/configuration.md lists every setting with its default', () => {
  const doc = readFileSync(CONFIGURATION_DOC, 'utf8');
  const rows = new Map<string, string>();
  for (const line of doc.split('\n')) {
    const row = /^\| `([A-Z0-9_]+)` \| (.*?) \| /.exec(line);
    if (row) rows.set(row[1], row[2]);
  }
  for (const s of Object.values(SETTINGS)) {
    assert.ok(rows.has(s.env), `docs/configuration.md lacks ${s.env}: run npm run docs:configuration`);
    assert.equal(rows.get(s.env), defaultCell(s.default), `the default of ${s.env} in docs/configuration.md`);
  }
  const known = new Set(Object.values(SETTINGS).map((s) => s.env));
  for (const env of rows.keys())
    assert.ok(known.has(env), `docs/configuration.md lists ${env}, which config.ts does not read`);
});

test('docs/configuration.md is what npm run docs:configuration writes from config.ts', () => {
  assert.equal(
    readFileSync(CONFIGURATION_DOC, 'utf8'),
    configurationDocument(),
    'docs/configuration.md is stale or edited by hand: change src/config.ts, then run npm run docs:configuration',
  );
});

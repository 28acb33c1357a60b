import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { cardCodesKey } from '../../src/lib/card-codes.ts';
import { derivedKey, textSealer } from '../../src/lib/sealed-text.ts';
import { ADMIN_KEY, caPem } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { startTcpProxy, type TcpProxy } from '../harness/tcp-proxy.ts';
import { CACHE_DIR } from '../harness/templates.ts';

// The upstream foundation: its configuration through the CLI and the admin API (the secret sealed
// and never answered back), the client's token cache counted at a real airgift upstream, and TLS
// checked against the configured CA.
const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
const CA = caPem();
const SECRET_MARK = 'Secret-Never-Shown';

let proxy: TcpProxy;
let upstream: TestServer;
let reseller: TestServer;
let env: NodeJS.ProcessEnv;
let caFile: string;
let upstreamUrl: string;
let upstreamAuth: string;
let account: { clientId: string; clientSecret: string; accountId: number };
let tokenRequests = 0;

before(async () => {
  // The upstream's public URL is the proxy's, so the audience the reseller asks for is its base.
  proxy = await startTcpProxy();
  upstream = await startTestServer({ env: { PUBLIC_URL: `https://localhost:${proxy.port}` } });
  proxy.setTarget(Number(new URL(upstream.url).port));
  upstreamUrl = `https://localhost:${proxy.port}/giftcards-sandbox`;
  upstreamAuth = `https://localhost:${proxy.port}/auth`;
  // count the token requests the upstream serves
  const tokens = upstream.runtime.services.tokens;
  const issue = tokens.issue.bind(tokens);
  tokens.issue = (body, guard) => {
    tokenRequests++;
    return issue(body, guard);
  };
  account = await upstream.admin.createAccount({ environment: 'sandbox', fund: 500 });
  reseller = await startTestServer();
  caFile = join(CACHE_DIR, `upstream-ca-${process.pid}.pem`);
  await writeFile(caFile, CA);
  env = { ...process.env, AIRGIFT_URL: reseller.url, AIRGIFT_ADMIN_KEY: ADMIN_KEY, AIRGIFT_CA_FILE: caFile };
});
after(async () => {
  await reseller?.close();
  await upstream?.close();
  await proxy?.close();
});

const airgift = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });
const failure = (args: string[]) =>
  airgift(...args).then(
    () => assert.fail('expected the command to fail'),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const setGiftcards = (...extra: string[]) =>
  airgift(
    ...['upstream', 'set', 'giftcards', '--url', upstreamUrl, '--auth-url', upstreamAuth],
    ...['--client-id', account.clientId, '--client-secret', `${account.clientSecret}`],
    ...extra,
  );

test('upstream set --json: the settings and the live balance, never the secret; sealed in the database', async () => {
  const { stdout } = await setGiftcards('--ca-file', caFile, '--margin-percent', '4.5', '--json');
  assert.ok(!stdout.includes(account.clientSecret));
  const set = JSON.parse(stdout);
  assert.equal(set.product, 'giftcards');
  assert.equal(set.url, upstreamUrl);
  assert.equal(set.authUrl, upstreamAuth);
  assert.equal(set.clientId, account.clientId);
  assert.equal(set.marginPercent, 4.5);
  assert.equal(set.caConfigured, true);
  assert.equal(set.lastSyncAt, null);
  assert.deepEqual(set.balance, { balance: 500, currencyCode: 'USD' });
  assert.equal(set.balanceError, null);
  assert.equal('clientSecret' in set, false);

  const row = await reseller.db.kysely.selectFrom('upstreams').selectAll().executeTakeFirstOrThrow();
  assert.notEqual(row.client_secret, account.clientSecret);
  assert.ok(!row.client_secret.includes(account.clientSecret));
  assert.equal(row.ca_pem, CA);
  // sealed with the key derived from the card codes key, and opened with it
  const sealer = textSealer(
    derivedKey(
      () => cardCodesKey(reseller.config.cardCodesKey, reseller.config.dataDir),
      'airgift upstream client secret',
    ),
  );
  assert.equal(await sealer.open(row.client_secret), account.clientSecret);

  // show, text and JSON, and the admin API's GET: no secret anywhere
  const shown = JSON.parse((await airgift('upstream', 'show', '--json')).stdout);
  assert.equal(shown.items.length, 1);
  assert.deepEqual(shown.items[0].balance, { balance: 500, currencyCode: 'USD' });
  const text = (await airgift('upstream', 'show')).stdout;
  assert.match(text, /balance\s+500 USD/);
  assert.ok(!text.includes(account.clientSecret));
  const api = await reseller.admin.call('GET', '/upstreams/giftcards');
  assert.equal(api.status, 200);
  assert.ok(!api.text.includes(account.clientSecret));
  assert.ok(!api.text.includes(SECRET_MARK));
});

test('the client caches one token per audience, refreshes it before expiry and once on 401 TOKEN_EXPIRED', async () => {
  // a new configuration is a new client: its first call (the balance `set` answers with) gets a token
  const before = tokenRequests;
  await setGiftcards('--ca-file', caFile);
  const client = await reseller.runtime.services.upstreams.client('giftcards');
  assert.ok(client);
  for (let i = 0; i < 3; i++) {
    const a = await client.call('GET', '/accounts/balance');
    assert.equal(a.kind, 'answered');
    assert.equal(a.kind === 'answered' && a.status, 200);
  }
  assert.equal(tokenRequests - before, 1, 'four calls, one token');
  assert.equal(client.tokenRequests(), 1);
  // sandbox tokens live 86400 s: 90 s before their end they are still used, 30 s before refreshed
  reseller.clock.advance((86_400 - 90) * 1000);
  await client.call('GET', '/accounts/balance');
  assert.equal(tokenRequests - before, 1, 'still the first token');
  reseller.clock.advance(60 * 1000);
  await client.call('GET', '/accounts/balance');
  assert.equal(tokenRequests - before, 2, 'refreshed before expiry');
  // the upstream's clock runs ahead: the reseller's token expired there; one 401, one new token
  upstream.clock.advance(2 * 86_400 * 1000);
  const late = await client.call('GET', '/accounts/balance');
  assert.equal(late.kind === 'answered' && late.status, 200);
  assert.equal(tokenRequests - before, 3, 'one new token after TOKEN_EXPIRED');
});

test('TLS: without the CA, or with another one, the upstream is not trusted; a bad PEM is refused', async () => {
  await setGiftcards();
  const system = (await reseller.runtime.services.upstreams.show('giftcards'))[0];
  assert.equal(system?.balance, null);
  assert.match(system?.balanceError ?? '', /certificate|CERT/i);

  const other = join(CACHE_DIR, `other-ca-${process.pid}.pem`);
  await writeFile(other, selfSignedPem());
  const { stdout } = await setGiftcards('--ca-file', other, '--json');
  const wrong = JSON.parse(stdout);
  assert.equal(wrong.balance, null);
  assert.match(wrong.balanceError, /certificate|CERT/i);

  const bad = join(CACHE_DIR, `bad-ca-${process.pid}.pem`);
  await writeFile(bad, 'not a certificate');
  const refused = await failure([
    ...['upstream', 'set', 'giftcards', '--url', upstreamUrl, '--auth-url', upstreamAuth],
    ...['--client-id', 'x', '--client-secret', 'y', '--ca-file', bad, '--json'],
  ]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /INVALID_REQUEST/);
  assert.match(refused.stderr, /caPem/);
  const http = await failure([
    ...['upstream', 'set', 'topups', '--url', 'http://example.com', '--auth-url', upstreamAuth],
    ...['--client-id', 'x', '--client-secret', 'y'],
  ]);
  assert.match(http.stderr, /url/);
});

test('upstream remove: gone from show; removing it again is 404 (exit 1)', async () => {
  await setGiftcards('--ca-file', caFile);
  const { stdout } = await airgift('upstream', 'remove', 'giftcards', '--json');
  assert.deepEqual(JSON.parse(stdout), { product: 'giftcards', removed: true });
  assert.deepEqual(JSON.parse((await airgift('upstream', 'show', '--json')).stdout), { items: [] });
  const again = await failure(['upstream', 'remove', 'giftcards']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /RESOURCE_NOT_FOUND/);
  assert.equal((await reseller.admin.call('GET', '/upstreams/giftcards')).status, 404);
  assert.equal(await reseller.runtime.services.upstreams.client('giftcards'), null);
});

test('the upstream routes need the admin key', async () => {
  for (const [method, path] of [
    ['GET', '/admin/upstreams'],
    ['GET', '/admin/upstreams/giftcards'],
    ['PUT', '/admin/upstreams/giftcards'],
    ['DELETE', '/admin/upstreams/topups'],
  ] as const) {
    const a = await reseller.http.call(method, path, { body: method === 'PUT' ? {} : undefined });
    assert.equal(a.status, 401, `${method} ${path}`);
    const wrong = await reseller.http.call(method, path, { token: 'not-the-admin-key' });
    assert.equal(wrong.status, 401, `${method} ${path} with another key`);
  }
});

test('a bad product or a missing option is refused by the CLI before any call', async () => {
  assert.equal((await failure(['upstream', 'set', 'vouchers', '--url', 'https://x'])).code, 1);
  assert.equal((await failure(['upstream', 'set', 'giftcards', '--url', upstreamUrl])).code, 1);
});

/** A CA certificate that signed nothing of ours. */
function selfSignedPem(): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const attrs = [{ name: 'commonName', value: 'another CA' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

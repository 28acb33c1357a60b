import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { basesFromConfig, createBaseRouter } from '../../src/http/bases.ts';

// decisions §1: a request is routed by host and path prefix; bases are full URLs in configuration.
test('one host with prefixes: the longest prefix wins, any host name of the server works', () => {
  const router = createBaseRouter(basesFromConfig(loadConfig({ PUBLIC_URL: 'https://localhost:8443' })));
  assert.equal(
    router.rewrite('localhost:8443', '/giftcards-sandbox/products?page=2').url,
    '/_giftcards/products?page=2',
  );
  assert.equal(router.rewrite('localhost:8443', '/giftcards-sandbox/products').base?.environment, 'sandbox');
  assert.equal(router.rewrite('localhost:8443', '/giftcards/products').base?.environment, 'live');
  assert.equal(router.rewrite('127.0.0.1:8443', '/topups/operators').base?.kind, 'topups');
  assert.equal(router.rewrite('localhost', '/giftcardsx/products').base, null);
  assert.equal(router.rewrite('localhost', '/auth/oauth/token').url, '/_auth/oauth/token');
});

test('a base on its own host is matched by host, with no prefix', () => {
  const config = loadConfig({
    PUBLIC_URL: 'https://api.example.com',
    GIFTCARDS_SANDBOX_URL: 'https://giftcards-sandbox.example.com',
    GIFTCARDS_URL: 'https://giftcards.example.com/',
  });
  const router = createBaseRouter(basesFromConfig(config));
  const sandbox = router.rewrite('giftcards-sandbox.example.com', '/products/5');
  assert.equal(sandbox.base?.environment, 'sandbox');
  assert.equal(sandbox.url, '/_giftcards/products/5');
  assert.equal(router.rewrite('giftcards.example.com:443', '/orders').base?.environment, 'live');
  assert.equal(router.rewrite('api.example.com', '/topups-sandbox/operators').base?.kind, 'topups');
  assert.equal(router.rewrite('other.example.com', '/products').base, null);
  assert.equal(router.byUrl('https://giftcards.example.com/')?.environment, 'live');
});

test("the redeem page /r/{token} on every host, and under PUBLIC_URL's path (issue 26)", () => {
  const config = loadConfig({
    PUBLIC_URL: 'https://example.com/airgift',
    GIFTCARDS_SANDBOX_URL: 'https://giftcards-sandbox.example.com',
  });
  const router = createBaseRouter(basesFromConfig(config), { publicUrl: config.publicUrl });
  for (const host of ['example.com', 'giftcards-sandbox.example.com', 'gift.example.net']) {
    assert.equal(router.rewrite(host, '/r/abc123').url, '/_shared/r/abc123', host);
  }
  assert.equal(router.rewrite('example.com', '/airgift/r/abc123/code').url, '/_shared/r/abc123/code');
  assert.equal(router.rewrite('example.com', '/airgift/giftcards/products').url, '/_giftcards/products');
});

test('the site root no base owns is the page for people; a base owning its host keeps its root (issue 28)', () => {
  const shared = createBaseRouter(basesFromConfig(loadConfig({ PUBLIC_URL: 'https://localhost:8443' })));
  assert.deepEqual(shared.rewrite('localhost:8443', '/'), { base: null, url: '/_shared/' });
  assert.equal(shared.rewrite('127.0.0.1:8443', '/?x=1').url, '/_shared/?x=1');
  assert.equal(shared.rewrite('localhost:8443', '/nothing').url, '/_unmatched/nothing');
  const config = loadConfig({
    PUBLIC_URL: 'https://example.com/airgift',
    GIFTCARDS_URL: 'https://api.example.com',
    DASHBOARD_URL: 'https://dashboard.example.com',
  });
  const own = createBaseRouter(basesFromConfig(config), { publicUrl: config.publicUrl });
  assert.equal(own.rewrite('api.example.com', '/').url, '/_giftcards/', 'the API base answers its own 404');
  assert.equal(own.rewrite('dashboard.example.com', '/').url, '/_dashboard/', 'the dashboard itself');
  assert.equal(own.rewrite('example.com', '/airgift').url, '/_shared/');
  assert.equal(own.rewrite('example.com', '/airgift/').url, '/_shared/');
  assert.equal(own.rewrite('example.com', '/').url, '/_shared/');
});

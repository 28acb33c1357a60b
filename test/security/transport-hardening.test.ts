import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { request } from 'undici';
import { HSTS } from '../../src/http/security-headers.ts';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { assertErrorEnvelope } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Transport hardening (README "Reliability and security"): TLS 1.2+ only, HSTS and security headers,
// the admin key's brute force slowed, request bodies and heads bounded, each refusal in the envelope.
let server: TestServer;
let token: string;
const ACCEPT = { accept: 'application/com.reloadly.giftcards-v1+json' };

before(async () => {
  server = await startTestServer({
    env: { RATE_LIMIT_ADMIN_FAILURES: '3', RATE_LIMIT_ADMIN_WINDOW_SECONDS: '60' },
  });
  const account = await server.admin.createAccount();
  token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
});
after(() => server.close());

function handshake(options: tls.ConnectionOptions): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port: Number(port), rejectUnauthorized: false, ...options },
      () => {
        const protocol = socket.getProtocol() ?? '';
        socket.destroy();
        resolve(protocol);
      },
    );
    socket.once('error', reject);
  });
}

function assertEnvelope(body: any, status: number, code: string, answerStatus: number) {
  assert.equal(answerStatus, status);
  assertErrorEnvelope(body, code);
}

describe('TLS', () => {
  test('TLS 1.3 and 1.2 are served', async () => {
    assert.equal(await handshake({}), 'TLSv1.3');
    assert.equal(await handshake({ maxVersion: 'TLSv1.2' }), 'TLSv1.2');
  });

  test('TLS 1.1 and 1.0 are refused by the server', async () => {
    for (const version of ['TLSv1.1', 'TLSv1'] as const) {
      // The client is allowed the old protocols (security level 0), so the refusal is the server's.
      await assert.rejects(
        handshake({ minVersion: 'TLSv1', maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' }),
        (error: Error) => /protocol version|unsupported protocol/i.test(error.message),
        version,
      );
    }
  });
});

describe('TLS 1.2 suites (issue 29: ECDHE with AEAD only, Mozilla intermediate)', () => {
  // The client offers exactly one suite (TLS 1.2 only, any security level), so a refusal is the server's.
  const offering = (cipher: string) =>
    handshake({ maxVersion: 'TLSv1.2', ciphers: `${cipher}@SECLEVEL=0` }).then(
      () => 'accepted',
      (error: Error) => (/alert handshake failure/i.test(error.message) ? 'refused' : error.message),
    );

  test('CBC with SHA-1, CBC with SHA-2 and static RSA key exchange (no forward secrecy) are refused', async () => {
    for (const cipher of [
      'ECDHE-RSA-AES128-SHA',
      'ECDHE-RSA-AES256-SHA',
      'ECDHE-RSA-AES128-SHA256',
      'AES128-SHA',
      'AES128-GCM-SHA256',
      'AES256-GCM-SHA384',
      'DHE-RSA-AES128-GCM-SHA256',
    ]) {
      assert.equal(await offering(cipher), 'refused', cipher);
    }
  });

  test('ECDHE with AES-GCM or ChaCha20-Poly1305 is served; TLS 1.3 as before', async () => {
    for (const cipher of [
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-RSA-CHACHA20-POLY1305',
    ]) {
      assert.equal(await offering(cipher), 'accepted', cipher);
    }
    for (const suite of [
      'TLS_AES_128_GCM_SHA256',
      'TLS_AES_256_GCM_SHA384',
      'TLS_CHACHA20_POLY1305_SHA256',
    ]) {
      assert.equal(
        await handshake({ minVersion: 'TLSv1.3', ciphersuites: suite } as tls.ConnectionOptions),
        'TLSv1.3',
        suite,
      );
    }
  });
});

describe('headers', () => {
  test('HSTS on every HTTPS answer, successes and errors, on every base', async () => {
    const answers = [
      await server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: ACCEPT }),
      await server.http.get('/giftcards-sandbox/accounts/balance', { headers: ACCEPT }),
      await server.admin.call('GET', '/accounts'),
      await server.http.get('/nowhere'),
      await server.http.get('/auth/openapi.json'),
    ];
    for (const answer of answers) {
      assert.equal(answer.headers['strict-transport-security'], HSTS);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    }
  });

  test('no HSTS on the plain-HTTP refusal (browsers ignore it there, and it would promise nothing)', async () => {
    const { port } = new URL(server.url);
    const answer = await request(`http://127.0.0.1:${port}/giftcards-sandbox/accounts/balance`);
    await answer.body.dump();
    assert.equal(answer.statusCode, 400);
    assert.equal(answer.headers['strict-transport-security'], undefined);
  });

  test('the HTML pages refuse framing and send no referrer', async () => {
    for (const path of [
      '/giftcards-sandbox/docs',
      '/topups-sandbox/docs',
      '/admin/docs',
      '/auth/docs',
      '/docs/errors',
    ]) {
      const page = await server.http.get(path, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200, path);
      assert.match(String(page.headers['content-type']), /^text\/html/, path);
      assert.equal(page.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(page.headers['referrer-policy'], 'no-referrer', path);
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/, path);
      assert.equal(page.headers['x-frame-options'], 'DENY', path);
    }
  });

  test('the HTML pages (references, dashboard, console) turn off the browser features none of them uses (Permissions-Policy)', async () => {
    for (const path of ['/giftcards-sandbox/docs', '/auth/docs', '/docs/errors', '/dashboard', '/console/']) {
      const page = await server.http.get(path, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200, path);
      assert.match(String(page.headers['content-type']), /^text\/html/, path);
      const policy = String(page.headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        assert.match(policy, new RegExp(`(^|, )${feature}=\\(\\)`), `${path}: ${feature} in ${policy}`);
      }
    }
  });
});

describe('sizes', () => {
  test('a body over BODY_LIMIT -> 413 REQUEST_TOO_LARGE on a product base, nothing ordered', async () => {
    const before = (
      await server.http.get('/giftcards-sandbox/reports/transactions', { token, headers: ACCEPT })
    ).body.length;
    const answer = await server.http.call('POST', '/giftcards-sandbox/orders', {
      token,
      headers: { ...ACCEPT, 'content-type': 'application/json' },
      rawBody: JSON.stringify({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'x'.repeat(100_000) }),
    });
    assertEnvelope(answer.body, 413, 'REQUEST_TOO_LARGE', answer.status);
    const after = (
      await server.http.get('/giftcards-sandbox/reports/transactions', { token, headers: ACCEPT })
    ).body.length;
    assert.equal(after, before);
  });

  test('request headers over HEADER_LIMIT -> 431 REQUEST_HEADERS_TOO_LARGE in the envelope, over HTTPS and plain HTTP', async () => {
    const { port } = new URL(server.url);
    for (const scheme of ['https', 'http']) {
      const answer = await request(`${scheme}://127.0.0.1:${port}/giftcards-sandbox/accounts/balance?x=1`, {
        headers: { authorization: `Bearer ${token}`, 'x-padding': 'p'.repeat(20_000) },
        dispatcher:
          scheme === 'https'
            ? new (await import('undici')).Agent({ connect: { rejectUnauthorized: false } })
            : undefined,
      });
      const body = (await answer.body.json()) as any;
      assertEnvelope(body, 431, 'REQUEST_HEADERS_TOO_LARGE', answer.statusCode);
      // Node hands over only the packet it failed on: the path when it holds the request line, else '/'.
      assert.ok(['/', '/giftcards-sandbox/accounts/balance'].includes(body.path), body.path);
    }
    // Under the limit, many headers are fine.
    const headers: Record<string, string> = { ...ACCEPT };
    for (let i = 0; i < 50; i++) headers[`x-h${i}`] = 'v'.repeat(100);
    assert.equal(
      (await server.http.get('/giftcards-sandbox/accounts/balance', { token, headers })).status,
      200,
    );
  });
});

describe('admin key', () => {
  test('failed admin key checks are counted per address: past the limit 429 with Retry-After, even for the right key, until the window ends', async () => {
    assert.equal((await server.admin.call('GET', '/accounts')).status, 200);
    for (let i = 0; i < 3; i++) {
      const wrong = await server.http.get('/admin/accounts', { headers: { 'x-admin-key': `guess-${i}` } });
      assertEnvelope(wrong.body, 401, 'AUTHENTICATION_FAILURE', wrong.status);
    }
    const limited = await server.http.get('/admin/accounts', { headers: { 'x-admin-key': 'guess-3' } });
    assertEnvelope(limited.body, 429, 'RATE_LIMIT_REACHED', limited.status);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const right = await server.http.get('/admin/accounts', {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    assertEnvelope(right.body, 429, 'RATE_LIMIT_REACHED', right.status);
    // The product bases are not affected by the admin block.
    assert.equal(
      (await server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: ACCEPT })).status,
      200,
    );
    server.clock.advance(61_000);
    assert.equal((await server.admin.call('GET', '/accounts')).status, 200);
  });
});

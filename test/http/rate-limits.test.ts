import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIENCES, type TestAccount, tokenRequest } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Rate limits counted in the process (no REDIS_URL), on the harness's movable clock: tokens issued
// per client_id, refused token requests per address, API requests per account; 429 with
// Retry-After, and a new window after it. (test/security/token-lockout.test.ts: wrong secrets never
// lock a client out.)
const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
const TOPUPS = { accept: 'application/com.reloadly.topups-v1+json' };

const tokenBody = tokenRequest;

describe('rate limits, small limits', () => {
  let server: TestServer;
  let a: TestAccount;
  let b: TestAccount;

  before(async () => {
    server = await startTestServer({
      env: {
        RATE_LIMIT_TOKEN_REQUESTS: '3',
        RATE_LIMIT_TOKEN_ADDRESS_FAILURES: '4',
        RATE_LIMIT_API_REQUESTS: '5',
        RATE_LIMIT_WINDOW_SECONDS: '10',
      },
    });
    a = await server.admin.createAccount();
    b = await server.admin.createAccount();
  });
  after(() => server.close());

  test('the token endpoint answers 429 in OAuth form with Retry-After past the per-client limit, then a new window', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await server.http.post('/auth/oauth/token', tokenBody(a));
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['ratelimit-limit'], '3');
      assert.equal(ok.headers['ratelimit-remaining'], String(2 - i));
    }
    const refused = await server.http.post('/auth/oauth/token', tokenBody(a));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.match(refused.body.error_description, /at most 3 per 10 s/);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    assert.equal(refused.headers['cache-control'], 'no-store');

    // A wrong secret is a 401, counted against its address, not against the client's budget.
    const guess = await server.http.post('/auth/oauth/token', { ...tokenBody(a), client_secret: 'guess' });
    assert.equal(guess.status, 401);
    assert.equal(guess.body.error, 'invalid_client');

    // Another client has its own budget.
    assert.equal((await server.http.post('/auth/oauth/token', tokenBody(b))).status, 200);

    server.clock.advance(10_000);
    assert.equal((await server.http.post('/auth/oauth/token', tokenBody(a))).status, 200);
  });

  test('refused token requests are counted per address (RATE_LIMIT_TOKEN_ADDRESS_FAILURES); a right secret is still served', async () => {
    const bad = { grant_type: 'client_credentials', audience: AUDIENCES.giftcardsSandbox };
    for (let i = 0; i < 4; i++) {
      const answer = await server.http.post('/auth/oauth/token', bad);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, 'invalid_request');
      assert.equal(answer.headers['ratelimit-remaining'], String(3 - i));
    }
    const refused = await server.http.post('/auth/oauth/token', bad);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.match(refused.body.error_description, /refused token requests from this address/);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // A client naming itself with its right secret is served from that address all the same.
    const c = await server.admin.createAccount();
    assert.equal((await server.http.post('/auth/oauth/token', tokenBody(c))).status, 200);
    server.clock.advance(10_000);
  });

  test('a product base answers 429 RATE_LIMIT_REACHED in the envelope past the per-account limit, shared by both products', async () => {
    const c = await server.admin.createAccount();
    const gift = await server.admin.token(c, AUDIENCES.giftcardsSandbox);
    const top = await server.admin.token(c, AUDIENCES.topupsSandbox);
    for (let i = 0; i < 5; i++) {
      const [path, token, headers] =
        i % 2 === 0
          ? ['/giftcards-sandbox/accounts/balance', gift, GIFTCARDS]
          : ['/topups-sandbox/accounts/balance', top, TOPUPS];
      const ok = await server.http.get(path, { token, headers });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['ratelimit-remaining'], String(4 - i));
    }
    const refused = await server.http.get('/topups-sandbox/accounts/balance', {
      token: top,
      headers: TOPUPS,
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errorCode, 'RATE_LIMIT_REACHED');
    assert.equal(refused.body.path, '/topups-sandbox/accounts/balance');
    assert.match(refused.body.infoLink, /#RATE_LIMIT_REACHED$/);
    assert.equal(typeof refused.body.timeStamp, 'number');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers['ratelimit-limit'], '5');
    assert.ok(refused.headers['x-request-id']);

    // Another account is not affected; an unauthenticated request is a 401, not counted.
    const other = await server.admin.token(b, AUDIENCES.giftcardsSandbox);
    assert.equal(
      (await server.http.get('/giftcards-sandbox/accounts/balance', { token: other, headers: GIFTCARDS }))
        .status,
      200,
    );
    assert.equal(
      (await server.http.get('/giftcards-sandbox/accounts/balance', { headers: GIFTCARDS })).status,
      401,
    );

    server.clock.advance(10_000);
    const again = await server.http.get('/giftcards-sandbox/accounts/balance', {
      token: gift,
      headers: GIFTCARDS,
    });
    assert.equal(again.status, 200);
    assert.equal(again.headers['ratelimit-remaining'], '4');
  });
});

describe('rate limits, defaults', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a client that asks for a new token before every call (20 in 2 s) is served', async () => {
    const account = await server.admin.createAccount();
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      const token = await server.http.post('/auth/oauth/token', tokenBody(account));
      assert.equal(token.status, 200, token.text);
      const balance = await server.http.get('/giftcards-sandbox/accounts/balance', {
        token: token.body.access_token,
        headers: GIFTCARDS,
      });
      assert.equal(balance.status, 200, balance.text);
      // Spread over about 2 s, as such a client would be.
      const due = started + (i + 1) * 100;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    // And the same 20 at once.
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => server.http.post('/auth/oauth/token', tokenBody(account))),
    );
    assert.deepEqual(
      burst.map((x) => x.status),
      Array(20).fill(200),
    );
    assert.equal(server.config.rateLimitTokenRequests, 200);
    assert.equal(server.config.rateLimitApiRequests, 1000);
    assert.equal(server.config.rateLimitWindowSeconds, 10);
  });
});

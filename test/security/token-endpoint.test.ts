import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { AUDIENCES, SIGNING_KEY, type TestAccount, tokenRequest } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * The token endpoint under attack (issue 29, docs/security.md): wrong secrets sent with someone
 * else's client_id never keep its owner from a token; known and unknown client_ids cost the same to
 * refuse; an oversized request is a 413; a token without `exp` is refused; a credential of the
 * other environment is named as such, never as "revoked". The server believes X-Forwarded-For from
 * loopback, so each test speaks from addresses of its own.
 */
let server: TestServer;
let victim: TestAccount;

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const tokenBody = tokenRequest;

before(async () => {
  // A long window, so that all of the attack falls in one window however slow the machine is.
  server = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1', RATE_LIMIT_WINDOW_SECONDS: '120' } });
  victim = await server.admin.createAccount();
});
after(() => server.close());

describe('wrong secrets do not lock a client out', () => {
  test('260 concurrent wrong secrets for a client_id (one address, then many), and its right secret still gets its token', async () => {
    const wrong = { ...tokenBody(victim), client_secret: 'sk_test_guessguessguessguess' };
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    // From one address: past RATE_LIMIT_TOKEN_FAILURES (20) that pair is answered 429.
    const one = await Promise.all(
      Array.from({ length: 130 }, () => server.http.post('/auth/oauth/token', wrong, from('203.0.113.7'))),
    );
    for (const a of one) count(a.status);
    // From 130 addresses at once, one each.
    const many = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        server.http.post('/auth/oauth/token', wrong, from(`198.18.${i >> 8}.${i & 255}`)),
      ),
    );
    for (const a of many) count(a.status);
    // The owner, from its own address and from the attacker's: 200 both times.
    for (const address of ['192.0.2.10', '203.0.113.7']) {
      const right = await server.http.post('/auth/oauth/token', tokenBody(victim), from(address));
      assert.equal(right.status, 200, `${address}: ${right.text}`);
      assert.equal(right.headers['ratelimit-remaining'], address === '192.0.2.10' ? '199' : '198');
    }
    // The attacker's own address was told to stop: 401 for the first 20, then 429.
    assert.deepEqual(Object.fromEntries(statuses), { 401: 20 + 130, 429: 110 });
    const limited = one.find((a) => a.status === 429);
    assert.equal(limited?.body.error, 'too_many_requests');
    assert.match(limited?.body.error_description, /from this address/);
  });
});

describe('equal work for known and unknown client_ids', () => {
  test('a wrong secret costs the same CPU whether the client_id exists or not (medians of 21)', async (t) => {
    const unknown = { clientId: 'ag_test_AAAAAAAAAAAAAAAA', clientSecret: 'sk_test_wrongwrongwrongwrong' };
    const { clientId } = await server.admin.createAccount();
    const known = { clientId, clientSecret: 'sk_test_wrongwrongwrongwrong' };
    let address = 0;
    // CPU time of this process (the server runs in it, scrypt on its thread pool too): unlike
    // wall time it hardly moves when other processes load the machine.
    const cpuOf = async (who: typeof known) => {
      const before = process.cpuUsage();
      const a = await server.http.post(
        '/auth/oauth/token',
        tokenBody(who),
        from(`198.51.100.${address++ % 250}`),
      );
      const used = process.cpuUsage(before);
      assert.equal(a.status, 401, a.text);
      return (used.user + used.system) / 1000;
    };
    for (let i = 0; i < 5; i++) await Promise.all([cpuOf(known), cpuOf(unknown)]);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 21; i++) {
      times.known.push(await cpuOf(known));
      times.unknown.push(await cpuOf(unknown));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const [k, u] = [median(times.known), median(times.unknown)];
    // An scrypt alone is ~25 ms of CPU here; a difference of that size would tell the two apart.
    const figures = `CPU ms per refusal: known ${k.toFixed(1)}, unknown ${u.toFixed(1)}`;
    t.diagnostic(figures);
    assert.ok(Math.abs(k - u) < 8, figures);
  });
});

describe('refusals that say what they are', () => {
  test('a token request over BODY_LIMIT answers 413 (README), in the OAuth form', async () => {
    const answer = await server.http.post('/auth/oauth/token', {
      ...tokenBody(victim),
      padding: 'x'.repeat(70 * 1024),
    });
    assert.equal(answer.status, 413, answer.text);
    assert.equal(answer.body.error, 'invalid_request');
    assert.equal(typeof answer.body.error_description, 'string');
  });

  test('a token without exp is refused, even signed with the right key', async () => {
    const token = await new SignJWT({ scope: 'developer', acc: victim.accountId, env: 'sandbox' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(server.config.authUrl)
      .setSubject(victim.clientId)
      .setAudience(AUDIENCES.giftcardsSandbox)
      .setIssuedAt()
      .sign(new TextEncoder().encode(SIGNING_KEY));
    const answer = await server.http.get('/giftcards-sandbox/accounts/balance', { token });
    assert.equal(answer.status, 401, answer.text);
    assert.equal(answer.body.errorCode, 'AUTHENTICATION_FAILURE');
    assert.match(answer.body.message, /no exp claim/);
  });

  test('a sandbox credential in a live token (signed with the key) is named as such, not "revoked"', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ scope: 'developer', acc: victim.accountId, env: 'live' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(server.config.authUrl)
      .setSubject(victim.clientId)
      .setAudience(AUDIENCES.giftcardsLive)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(SIGNING_KEY));
    const answer = await server.http.get('/giftcards/accounts/balance', { token });
    assert.equal(answer.status, 401, answer.text);
    assert.doesNotMatch(answer.body.message, /revoked/);
    assert.match(answer.body.message, /belongs to the sandbox environment/);
  });

  test('a token request for a live audience with a sandbox credential: invalid_client naming the environment', async () => {
    const sandbox = await server.admin.createAccount();
    const answer = await server.http.post('/auth/oauth/token', tokenBody(sandbox, AUDIENCES.giftcardsLive));
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error, 'invalid_client');
    assert.doesNotMatch(answer.body.error_description, /revoked/);
    assert.match(answer.body.error_description, /belongs to the sandbox environment; the audience is live/);
  });
});

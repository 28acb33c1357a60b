import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/lib/password-hash.ts';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';

// decisions §2: client credentials, audience = product base, tokens work on their audience's base only.
// The whole suite runs on embedded PGlite and again on the PostgreSQL server when it answers.
const databases: ('pglite' | 'postgres')[] = (await postgresForTests()) ? ['pglite', 'postgres'] : ['pglite'];

for (const database of databases) {
  describe(`tokens on ${database}`, () => {
    let server: TestServer;
    let sandbox: TestAccount;
    let live: TestAccount;

    before(async () => {
      server = await startTestServer({ database });
      sandbox = await server.admin.createAccount({ environment: 'sandbox', fund: 1000 });
      live = await server.admin.createAccount({ environment: 'live', fund: 250 });
    });
    after(() => server.close());

    const tokenBody = (a: TestAccount, audience: string) => ({
      client_id: a.clientId,
      client_secret: a.clientSecret,
      grant_type: 'client_credentials',
      audience,
    });

    describe('token endpoint', () => {
      for (const [name, audience, env] of [
        ['gift cards sandbox', AUDIENCES.giftcardsSandbox, 'sandbox'],
        ['top-ups sandbox', AUDIENCES.topupsSandbox, 'sandbox'],
        ['gift cards live', AUDIENCES.giftcardsLive, 'live'],
        ['top-ups live', AUDIENCES.topupsLive, 'live'],
      ] as const) {
        test(`issues a Bearer token for ${name} whose scope lists the product's scopes`, async () => {
          const account = env === 'sandbox' ? sandbox : live;
          const answer = await server.http.post('/auth/oauth/token', tokenBody(account, audience));
          assert.equal(answer.status, 200);
          assert.equal(answer.body.token_type, 'Bearer');
          assert.equal(typeof answer.body.access_token, 'string');
          assert.equal(answer.body.expires_in, env === 'live' ? 5_184_000 : 86_400);
          const expected = audience.includes('giftcards')
            ? 'developer'
            : 'send-topups read-topups-history read-operators read-promotions read-prepaid-balance read-prepaid-commissions';
          assert.equal(answer.body.scope, expected);
          const base = new URL(audience).pathname;
          const balance = await server.http.get(`${base}/accounts/balance`, {
            token: answer.body.access_token,
          });
          assert.equal(balance.status, 200);
          assert.equal(balance.body.balance, env === 'live' ? 250 : 1000);
        });
      }

      test('accepts a form-encoded body (RFC 6749) and an audience with a trailing slash', async () => {
        const form = new URLSearchParams({
          ...tokenBody(sandbox, `${AUDIENCES.giftcardsSandbox}/`),
        }).toString();
        const answer = await server.http.call('POST', '/auth/oauth/token', {
          rawBody: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.scope, 'developer');
      });

      test('wrong secret -> 401 invalid_client in the OAuth body', async () => {
        const answer = await server.http.post('/auth/oauth/token', {
          ...tokenBody(sandbox, AUDIENCES.giftcardsSandbox),
          client_secret: 'nope',
        });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error, 'invalid_client');
        assert.equal(typeof answer.body.error_description, 'string');
      });

      test('unknown client -> 401 invalid_client', async () => {
        const answer = await server.http.post('/auth/oauth/token', {
          ...tokenBody(sandbox, AUDIENCES.giftcardsSandbox),
          client_id: 'ag_test_nobody',
        });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error, 'invalid_client');
      });

      test('live audiences refuse sandbox credentials, and sandbox audiences live ones', async () => {
        for (const [account, audience] of [
          [sandbox, AUDIENCES.giftcardsLive],
          [sandbox, AUDIENCES.topupsLive],
          [live, AUDIENCES.giftcardsSandbox],
        ] as const) {
          const answer = await server.http.post('/auth/oauth/token', tokenBody(account, audience));
          assert.equal(answer.status, 401, audience);
          assert.equal(answer.body.error, 'invalid_client');
          // The secret was right: the answer says which environment the credential is for.
          assert.match(answer.body.error_description, /belongs to the (sandbox|live) environment/);
          assert.doesNotMatch(answer.body.error_description, /revoked/);
        }
      });

      test('other grant type, unknown audience, malformed body -> 400 with an OAuth error', async () => {
        const cases: [unknown, string][] = [
          [
            { ...tokenBody(sandbox, AUDIENCES.giftcardsSandbox), grant_type: 'password' },
            'unsupported_grant_type',
          ],
          [{ ...tokenBody(sandbox, 'https://elsewhere.example.com/giftcards') }, 'invalid_target'],
          [{ client_id: sandbox.clientId }, 'invalid_request'],
        ];
        for (const [body, error] of cases) {
          const answer = await server.http.post('/auth/oauth/token', body);
          assert.equal(answer.status, 400);
          assert.equal(answer.body.error, error);
        }
        const broken = await server.http.call('POST', '/auth/oauth/token', {
          rawBody: '{"client_id":',
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(broken.status, 400);
        assert.equal(broken.body.error, 'invalid_request');
      });
    });

    describe('tokens on the product bases', () => {
      test('a token works only on its audience base: elsewhere 401 AUTHENTICATION_FAILURE', async () => {
        const token = await server.admin.token(sandbox, AUDIENCES.giftcardsSandbox);
        assert.equal((await server.http.get('/giftcards-sandbox/accounts/balance', { token })).status, 200);
        for (const base of ['/topups-sandbox', '/giftcards', '/topups']) {
          const answer = await server.http.get(`${base}/accounts/balance`, { token });
          assert.equal(answer.status, 401, base);
          assert.equal(answer.body.errorCode, 'AUTHENTICATION_FAILURE');
        }
      });

      test('both products read the same balance of the account', async () => {
        const g = await server.http.get('/giftcards-sandbox/accounts/balance', {
          token: await server.admin.token(sandbox, AUDIENCES.giftcardsSandbox),
        });
        const t = await server.http.get('/topups-sandbox/accounts/balance', {
          token: await server.admin.token(sandbox, AUDIENCES.topupsSandbox),
        });
        assert.deepEqual(g.body, t.body);
        assert.equal(g.body.balance, 1000);
        assert.equal(g.body.currencyCode, 'USD');
        assert.equal(g.body.currencyName, 'US Dollar');
        assert.match(g.body.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      });

      test('missing or malformed token -> 401 AUTHENTICATION_FAILURE', async () => {
        for (const headers of [
          {},
          { authorization: 'Bearer not-a-jwt' },
          { authorization: 'Basic abc' },
        ] as Record<string, string>[]) {
          const answer = await server.http.get('/giftcards-sandbox/accounts/balance', { headers });
          assert.equal(answer.status, 401);
          assert.equal(answer.body.errorCode, 'AUTHENTICATION_FAILURE');
        }
      });

      test('a verified token is accepted in every form of the header, and nothing else around it', async () => {
        // The token service finds a kept token straight after `Bearer ` (token-cache.ts, keptOf);
        // any other form goes through the header's pattern: the answers must not depend on which.
        const token = await server.admin.token(sandbox, AUDIENCES.giftcardsSandbox);
        const read = (authorization: string) =>
          server.http.get('/giftcards-sandbox/accounts/balance', { headers: { authorization } });
        assert.equal((await read(`Bearer ${token}`)).status, 200); // verified, and kept
        for (const form of [`Bearer ${token}`, `bearer ${token}`, `Bearer   ${token}`, `BEARER ${token}  `]) {
          assert.equal((await read(form)).status, 200, form.slice(0, 12));
        }
        for (const form of [`Bearer ${token} x`, `Bearer ${token}x`, `Bearer x${token}`, `Bearer${token}`]) {
          const answer = await read(form);
          assert.equal(answer.status, 401, form.slice(0, 12));
          assert.equal(answer.body.errorCode, 'AUTHENTICATION_FAILURE');
        }
      });

      test('expired token -> 401 TOKEN_EXPIRED', async () => {
        const token = await server.admin.token(sandbox, AUDIENCES.topupsSandbox);
        server.clock.advance(86_400_000 + 1000);
        try {
          const answer = await server.http.get('/topups-sandbox/accounts/balance', { token });
          assert.equal(answer.status, 401);
          assert.equal(answer.body.errorCode, 'TOKEN_EXPIRED');
        } finally {
          server.clock.advance(-(86_400_000 + 1000));
        }
      });

      test('revoking a credential revokes its tokens and its token requests', async () => {
        const account = await server.admin.createAccount();
        const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
        assert.equal((await server.http.get('/giftcards-sandbox/accounts/balance', { token })).status, 200);
        const revoked = await server.admin.call('POST', `/credentials/${account.clientId}/revoke`);
        assert.equal(revoked.status, 200);
        const answer = await server.http.get('/giftcards-sandbox/accounts/balance', { token });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.errorCode, 'AUTHENTICATION_FAILURE');
        const again = await server.http.post(
          '/auth/oauth/token',
          tokenBody(account, AUDIENCES.giftcardsSandbox),
        );
        assert.equal(again.status, 401);
        assert.equal(again.body.error, 'invalid_client');
      });

      test('a credential without the needed scope -> 403 NOT_AUTHORIZED', async () => {
        const account = await server.admin.createAccount({ scopes: ['read-operators'] });
        const topups = await server.http.post(
          '/auth/oauth/token',
          tokenBody(account, AUDIENCES.topupsSandbox),
        );
        assert.equal(topups.body.scope, 'read-operators');
        const balance = await server.http.get('/topups-sandbox/accounts/balance', {
          token: topups.body.access_token,
        });
        assert.equal(balance.status, 403);
        assert.equal(balance.body.errorCode, 'NOT_AUTHORIZED');
      });

      test('a credential with no scope of a product gets no token for it -> 400 invalid_scope', async () => {
        const account = await server.admin.createAccount({ scopes: ['read-operators'] });
        const giftcards = await server.http.post(
          '/auth/oauth/token',
          tokenBody(account, AUDIENCES.giftcardsSandbox),
        );
        assert.equal(giftcards.status, 400);
        assert.equal(giftcards.body.error, 'invalid_scope');
        assert.match(giftcards.body.error_description, /no scope of the giftcards service/);
        assert.equal(giftcards.body.access_token, undefined);
      });

      test('client secrets are stored only as salted HMAC-SHA-256 hashes', async () => {
        const account = await server.admin.createAccount();
        const rows = await server.db.kysely
          .selectFrom('credentials')
          .select(['client_id', 'secret_hash'])
          .execute();
        assert.ok(rows.some((row) => row.client_id === account.clientId));
        for (const row of rows) {
          assert.match(row.secret_hash, /^hmac-sha256\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
          // Not "contains sk_": a base64url hash holds those three characters now and then.
          assert.ok(!row.secret_hash.includes(account.clientSecret), 'the secret itself is not stored');
        }
      });

      test('a secret stored as an scrypt hash (before the fast hash) still works, and is re-hashed on its first right use', async () => {
        const account = await server.admin.createAccount();
        const credentials = server.db.kysely
          .selectFrom('credentials')
          .where('client_id', '=', account.clientId);
        await server.db.kysely
          .updateTable('credentials')
          .set({ secret_hash: await hashPassword(account.clientSecret) })
          .where('client_id', '=', account.clientId)
          .execute();
        const wrong = await server.http.post('/auth/oauth/token', {
          ...tokenBody(account, AUDIENCES.giftcardsSandbox),
          client_secret: `${account.clientSecret}x`,
        });
        assert.equal(wrong.status, 401);
        assert.match(
          (await credentials.select('secret_hash').executeTakeFirstOrThrow()).secret_hash,
          /^scrypt\$/,
        );
        const right = await server.http.post(
          '/auth/oauth/token',
          tokenBody(account, AUDIENCES.giftcardsSandbox),
        );
        assert.equal(right.status, 200, right.text);
        const { secret_hash } = await credentials.select('secret_hash').executeTakeFirstOrThrow();
        assert.match(secret_hash, /^hmac-sha256\$/);
        const again = await server.http.post(
          '/auth/oauth/token',
          tokenBody(account, AUDIENCES.giftcardsSandbox),
        );
        assert.equal(again.status, 200, 'the new hash verifies');
      });
    });
  });
}

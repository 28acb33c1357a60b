import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AirgiftError, GiftCards, Topups } from '../../sdk/src/index.ts';
import type { TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { recordingFetch, sandboxOptions, tlsFetch } from './helpers.ts';

// The SDK's tokens against a real server whose sandbox tokens live 30 s: fetched on first use, cached,
// refreshed before expiry by the SDK's clock, and once more when the server answers TOKEN_EXPIRED.
describe('SDK tokens', () => {
  let server: TestServer;
  let account: TestAccount;
  let fetch: ReturnType<typeof tlsFetch>;

  before(async () => {
    server = await startTestServer({ env: { TOKEN_TTL_SANDBOX: '30' } });
    account = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
    fetch = tlsFetch();
  });
  after(async () => {
    await fetch.close();
    await server.close();
  });

  const calls = (f: ReturnType<typeof recordingFetch>) => f.sent.map((s) => `${s.path} ${s.status}`);

  test('a token is fetched on first use, reused, and refreshed 10% before it expires', async () => {
    const recorder = recordingFetch(fetch);
    // The SDK reads the server's adjustable clock, so moving it moves both sides' time.
    const giftcards = new GiftCards({
      ...sandboxOptions(server, account, 'giftcards', recorder),
      now: () => server.clock.now().getTime(),
    });
    const token = await giftcards.accessToken();
    assert.equal(token.expires_in, 30);
    assert.equal((await giftcards.balance.get()).balance, 100);
    await giftcards.balance.get();
    server.clock.advance(24_000); // 6 s left: still fresh (the refresh point is 3 s before expiry)
    await giftcards.balance.get();
    assert.deepEqual(calls(recorder), [
      '/auth/oauth/token 200',
      '/giftcards-sandbox/accounts/balance 200',
      '/giftcards-sandbox/accounts/balance 200',
      '/giftcards-sandbox/accounts/balance 200',
    ]);
    server.clock.advance(4_000); // under 3 s left: refreshed before use, so the server never sees it expire
    await giftcards.balance.get();
    assert.deepEqual(calls(recorder).slice(4), [
      '/auth/oauth/token 200',
      '/giftcards-sandbox/accounts/balance 200',
    ]);
    assert.notEqual((await giftcards.accessToken()).access_token, token.access_token);
  });

  test('a token the server calls expired is replaced once and the call repeated', async () => {
    const recorder = recordingFetch(fetch);
    // This client keeps the real time, so only the server sees the token age.
    const topups = new Topups(sandboxOptions(server, account, 'topups', recorder));
    await topups.balance.get();
    server.clock.advance(40_000);
    assert.equal((await topups.balance.get()).balance, 100);
    assert.deepEqual(calls(recorder), [
      '/auth/oauth/token 200',
      '/topups-sandbox/accounts/balance 200',
      '/topups-sandbox/accounts/balance 401',
      '/auth/oauth/token 200',
      '/topups-sandbox/accounts/balance 200',
    ]);
  });

  test('concurrent first calls share one token request', async () => {
    const recorder = recordingFetch(fetch);
    const giftcards = new GiftCards(sandboxOptions(server, account, 'giftcards', recorder));
    await Promise.all([giftcards.balance.get(), giftcards.balance.get(), giftcards.balance.get()]);
    assert.equal(recorder.sent.filter((s) => s.path === '/auth/oauth/token').length, 1);
  });

  test('an OAuth error of the token endpoint is an AirgiftError with the OAuth code', async () => {
    const giftcards = new GiftCards({
      ...sandboxOptions(server, account, 'giftcards', fetch),
      clientSecret: 'sk_test_wrong',
    });
    const error = await giftcards.balance.get().then(
      () => assert.fail('a wrong secret got a token'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 401);
    assert.equal(error.errorCode, 'invalid_client');
    assert.equal(error.path, '/oauth/token');
    assert.match(error.requestId ?? '', /\S/);
  });

  test('an error answer carries status, errorCode, message, path and the request id', async () => {
    const reader = await server.admin.createAccount({ environment: 'sandbox', scopes: ['read-operators'] });
    const topups = new Topups(sandboxOptions(server, reader, 'topups', fetch));
    const error = await topups.balance.get().then(
      () => assert.fail('a credential without read-prepaid-balance read the balance'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 403);
    assert.equal(error.errorCode, 'NOT_AUTHORIZED');
    assert.match(error.message, /\S/);
    assert.match(error.path ?? '', /accounts\/balance$/);
    assert.match(error.requestId ?? '', /\S/);
  });
});

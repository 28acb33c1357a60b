import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 12: a 401 says which case it is, a 406 names the media type to send, a 415 the content type.
let server: TestServer;
let account: TestAccount;
before(async () => {
  server = await startTestServer();
  account = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
});
after(() => server.close());

const balance = '/giftcards-sandbox/accounts/balance';

test('a 401 says whether the Bearer header is missing, malformed, forged, or for another base', async () => {
  const none = await server.http.get(balance);
  assert.equal(none.status, 401);
  assert.match(none.body.message, /No Authorization header/);
  const basic = await server.http.get(balance, { headers: { authorization: 'Basic abc' } });
  assert.match(basic.body.message, /not `Bearer <access_token>`/);
  const forged = await server.http.get(balance, { token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl' });
  assert.match(forged.body.message, /signature does not verify/);
  const topupsToken = await server.admin.token(account, AUDIENCES.topupsSandbox);
  const wrongBase = await server.http.get(balance, { token: topupsToken });
  assert.equal(wrongBase.status, 401);
  assert.equal(wrongBase.body.errorCode, 'AUTHENTICATION_FAILURE');
  assert.match(
    wrongBase.body.message,
    /issued for https:\/\/localhost\/topups-sandbox, not for https:\/\/localhost\/giftcards-sandbox/,
  );
});

test('an expired token answers TOKEN_EXPIRED with the time it expired', async () => {
  const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  server.clock.advance(2 * 24 * 3600 * 1000);
  try {
    const expired = await server.http.get(balance, { token });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.errorCode, 'TOKEN_EXPIRED');
    assert.match(expired.body.message, /expired at \d{4}-\d\d-\d\dT/);
  } finally {
    server.clock.advance(-2 * 24 * 3600 * 1000);
  }
});

test('406 names the media type to send; 415 names the content type sent and the one to send', async () => {
  const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  const notAcceptable = await server.http.get(balance, { token, headers: { accept: 'text/csv' } });
  assert.equal(notAcceptable.status, 406);
  assert.match(notAcceptable.body.message, /send Accept: application\/json/);
  const unsupported = await server.http.call('POST', '/giftcards-sandbox/orders', {
    token,
    rawBody: 'productId=11',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(unsupported.status, 415);
  assert.match(unsupported.body.message, /Content-Type text\/plain is not supported.*application\/json/);
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { AUDIENCES, SIGNING_KEY } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { ACCEPT } from './helpers.ts';

// The shared security cases on every gift card route (styleguide habit 7): no token 401, a token of
// another product 401, a credential without the `developer` scope 403, on both environments' bases.
const ROUTES: [string, string][] = [
  ['GET', '/accounts/balance'],
  ['GET', '/product-categories'],
  ['GET', '/countries'],
  ['GET', '/countries/US'],
  ['GET', '/products'],
  ['GET', '/products/1840'],
  ['GET', '/countries/US/products'],
  ['GET', '/redeem-instructions'],
  ['GET', '/products/1840/redeem-instructions'],
  ['GET', '/brands/1/redeem-instructions'],
  ['GET', '/fx-rate?currencyCode=EUR&amount=10'],
  ['GET', '/discounts'],
  ['GET', '/products/1840/discounts'],
  ['GET', '/reports/transactions'],
  ['GET', '/reports/transactions/10001'],
  ['POST', '/orders'],
  ['GET', '/orders/transactions/10001/cards'],
];
const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' };

describe('gift card routes: security cases', () => {
  let server: TestServer;
  let topupToken: string;
  let noScopeToken: string;
  before(async () => {
    server = await startTestServer();
    const account = await server.admin.createAccount();
    topupToken = await server.admin.token(account, AUDIENCES.topupsSandbox);
    // The token endpoint no longer issues a token with no scope of its product (400 invalid_scope);
    // one signed with the server's key all the same (issued before that rule, say) is still refused
    // on every call.
    const narrow = await server.admin.createAccount({ scopes: ['read-operators'] });
    const now = Math.floor(server.clock.now().getTime() / 1000);
    noScopeToken = await new SignJWT({ scope: '', acc: narrow.accountId, env: 'sandbox' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('https://localhost/auth')
      .setSubject(narrow.clientId)
      .setAudience(AUDIENCES.giftcardsSandbox)
      .setJti('no-scope-token')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(SIGNING_KEY));
  });
  after(() => server.close());

  for (const [method, path] of ROUTES) {
    test(`${method} ${path}`, async () => {
      const body = method === 'POST' ? ORDER : undefined;
      for (const base of ['/giftcards', '/giftcards-sandbox']) {
        const none = await server.http.call(method, `${base}${path}`, { headers: ACCEPT, body });
        assert.equal(none.status, 401, `${base} without a token`);
        assert.equal(none.body.errorCode, 'AUTHENTICATION_FAILURE');
      }
      const other = await server.http.call(method, `/giftcards-sandbox${path}`, {
        token: topupToken,
        headers: ACCEPT,
        body,
      });
      assert.equal(other.status, 401, 'a top-up token');
      const noScope = await server.http.call(method, `/giftcards-sandbox${path}`, {
        token: noScopeToken,
        headers: ACCEPT,
        body,
      });
      assert.equal(noScope.status, 403, 'without the developer scope');
      assert.equal(noScope.body.errorCode, 'NOT_AUTHORIZED');
    });
  }
});

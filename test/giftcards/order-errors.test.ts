import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { ACCEPT } from './helpers.ts';

// Every error row of giftcards.md and decisions §3/§5/§6 for orders, reports and cards, each with its
// status and code, and nothing debited by a refused order.
const GOOD = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' };

describe('gift card order errors', () => {
  let server: TestServer;
  let client: Caller;
  before(async () => {
    server = await startTestServer();
  });
  // every case has an account of its own: no case sees another's balance, orders or identifiers
  beforeEach(async () => {
    client = await server.caller('giftcards', 'sandbox', { fund: 100 });
  });
  after(() => server.close());

  async function refused(body: unknown, status: number, code: string, field?: string) {
    const before = (await client.get('/accounts/balance')).body.balance;
    const answer = await client.post('/orders', body);
    assert.equal(answer.status, status, `${JSON.stringify(body)} -> ${answer.text}`);
    assert.equal(answer.body.errorCode, code);
    if (field)
      assert.ok(
        answer.body.details.some((d: any) => d.field.includes(field)),
        JSON.stringify(answer.body.details),
      );
    assert.equal((await client.get('/accounts/balance')).body.balance, before, 'nothing debited');
    return answer.body;
  }

  test('400 INVALID_REQUEST for every bad body field', async () => {
    const { productId: _, ...noProduct } = GOOD;
    await refused(noProduct, 400, 'INVALID_REQUEST', 'productId');
    await refused({ ...GOOD, unitPrice: '10' }, 400, 'INVALID_REQUEST', 'unitPrice');
    await refused({ ...GOOD, quantity: 1.5 }, 400, 'INVALID_REQUEST', 'quantity');
    await refused({ ...GOOD, senderName: undefined }, 400, 'INVALID_REQUEST', 'senderName');
    await refused({ ...GOOD, productId: 999999 }, 400, 'INVALID_REQUEST', 'productId');
    await refused({ ...GOOD, unitPrice: 11 }, 400, 'INVALID_REQUEST', 'unitPrice');
    await refused({ ...GOOD, productId: 12, unitPrice: 4.99 }, 400, 'INVALID_REQUEST', 'unitPrice');
    await refused({ ...GOOD, productId: 12, unitPrice: 500.01 }, 400, 'INVALID_REQUEST', 'unitPrice');
    await refused({ ...GOOD, productId: 12, unitPrice: 10.005 }, 400, 'INVALID_REQUEST', 'unitPrice');
    await refused({ ...GOOD, quantity: 0 }, 400, 'INVALID_REQUEST', 'quantity');
    await refused({ ...GOOD, quantity: 11 }, 400, 'INVALID_REQUEST', 'quantity');
    await refused({ ...GOOD, senderName: '   ' }, 400, 'INVALID_REQUEST', 'senderName');
    await refused({ ...GOOD, customIdentifier: 'x'.repeat(151) }, 400, 'INVALID_REQUEST', 'customIdentifier');
    await refused({ ...GOOD, recipientEmail: 'not-an-email' }, 400, 'INVALID_REQUEST', 'recipientEmail');
    await refused(
      { ...GOOD, recipientPhoneDetails: { countryCode: 'NG', phoneNumber: '+234123' } },
      400,
      'INVALID_REQUEST',
      'phoneNumber',
    );
    await refused(
      { ...GOOD, recipientPhoneDetails: { countryCode: 'GB', phoneNumber: '+2348031234567' } },
      400,
      'INVALID_REQUEST',
      'phoneNumber',
    );
    await refused({ ...GOOD, preOrder: true }, 400, 'INVALID_REQUEST', 'preOrder');
    const answer = await server.http.call('POST', '/giftcards-sandbox/orders', {
      token: client.token,
      headers: { ...ACCEPT, 'content-type': 'application/json' },
      rawBody: '{"productId": 11,',
    });
    assert.equal(answer.status, 400);
  });

  test('productAdditionalRequirements.userId where the product requires it', async () => {
    const order = { productId: 15050, quantity: 1, unitPrice: 100, senderName: 'Ada' };
    await refused(order, 400, 'INVALID_REQUEST', 'productAdditionalRequirements.userId');
    await refused(
      { ...order, productAdditionalRequirements: { userId: ' ' } },
      400,
      'INVALID_REQUEST',
      'userId',
    );
    const ok = await client.post('/orders', {
      ...order,
      productAdditionalRequirements: { userId: 'player-42' },
    });
    assert.equal(ok.status, 200, ok.text);
  });

  test('a valid E.164 number of its country is accepted and stored as the spec spells it', async () => {
    const ok = await client.post('/orders', {
      ...GOOD,
      recipientPhoneDetails: { countryCode: 'GB', phoneNumber: '+447400123456' },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.receipientPhone, 447400123456);
  });

  test('an inactive product: 400 on order and by id, back after activation', async () => {
    const off = await server.admin.call('POST', '/products/11/deactivate');
    assert.equal(off.status, 200);
    await refused(GOOD, 400, 'INVALID_REQUEST', 'productId');
    assert.equal((await client.get('/products/11')).status, 400);
    const listed = (await client.get('/products?size=20')).body.map((p: any) => p.productId);
    assert.ok(!listed.includes(11));
    assert.equal((await server.admin.call('POST', '/products/11/activate')).status, 200);
    assert.equal((await client.get('/products/11')).status, 200);
    assert.equal((await server.admin.call('POST', '/products/5/activate')).status, 404);
  });

  test('customIdentifier: reuse is 400 CUSTOM_IDENTIFIER_ALREADY_USED; unique per product', async () => {
    const first = await client.post('/orders', { ...GOOD, customIdentifier: 'ref-1' });
    assert.equal(first.status, 200);
    await refused({ ...GOOD, customIdentifier: 'ref-1' }, 400, 'CUSTOM_IDENTIFIER_ALREADY_USED');
    const other = await client.post('/orders', { ...GOOD, productId: 12, customIdentifier: 'ref-1' });
    assert.equal(other.status, 200, 'another product may use the same reference');
  });

  test('403: insufficient balance, inactive account, daily count and amount limits', async () => {
    const poor = await server.caller('giftcards', 'sandbox', { fund: 5 });
    const answer = await poor.post('/orders', GOOD);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.errorCode, 'INSUFFICIENT_BALANCE');
    assert.match(
      answer.body.message,
      /^The account balance \(5 USD\) is too low for this operation, which costs \d+(\.\d+)? USD\.$/,
    );
    const cost = Number(/costs ([\d.]+) USD/.exec(answer.body.message)![1]);
    assert.ok(cost > 5, `the cost named (${cost}) is what the order needed`);
    assert.equal((await poor.get('/accounts/balance')).body.balance, 5);

    const limited = await server.caller('giftcards', 'sandbox', { fund: 500 });
    const id = limited.account.accountId;
    await server.admin.call('PATCH', `/accounts/${id}`, { dailyCountLimit: 1 });
    assert.equal((await limited.post('/orders', GOOD)).status, 200);
    const count = await limited.post('/orders', GOOD);
    assert.equal(count.status, 403, count.text);
    assert.equal(count.body.errorCode, 'MAX_DAILY_TRANSACTION_COUNT_REACHED');

    const capped = await server.caller('giftcards', 'sandbox', { fund: 500 });
    const cappedId = capped.account.accountId;
    await server.admin.call('PATCH', `/accounts/${cappedId}`, { dailyAmountLimit: '15' });
    assert.equal((await capped.post('/orders', GOOD)).status, 200);
    const amount = await capped.post('/orders', GOOD);
    assert.equal(amount.status, 403, amount.text);
    assert.equal(amount.body.errorCode, 'MAX_DAILY_TRANSACTION_AMOUNT_REACHED');

    const inactive = await server.caller('giftcards', 'sandbox', { fund: 500 });
    await server.admin.call('POST', `/accounts/${inactive.account.accountId}/deactivate`);
    const refusedInactive = await inactive.post('/orders', GOOD);
    assert.equal(refusedInactive.status, 403);
    assert.equal(refusedInactive.body.errorCode, 'INACTIVE_ACCOUNT');
    assert.equal((await inactive.get('/products/1840')).status, 200, 'an inactive account still reads');
    assert.deepEqual(await server.admin.audit(), []);
  });

  test('live: no provider, so an order is refused with 422 and nothing is debited', async () => {
    const live = await server.caller('giftcards', 'live', { fund: 100 });
    const answer = await live.post('/orders', { ...GOOD, productId: 1840 });
    assert.equal(answer.status, 422);
    assert.equal(answer.body.errorCode, 'UNPROCCESSABLE_ENTITY');
    assert.equal((await live.get('/accounts/balance')).body.balance, 100);
    const bad = await live.post('/orders', { ...GOOD, productId: 1840, unitPrice: 11 });
    assert.equal(bad.status, 400, 'body errors are still 400 on live');
  });

  test('401 without a token or with a top-up token', async () => {
    const none = await server.http.post('/giftcards-sandbox/orders', GOOD, { headers: ACCEPT });
    assert.equal(none.status, 401);
    const topupToken = await server.admin.token(client.account, 'https://localhost/topups-sandbox');
    const wrong = await server.http.get('/giftcards-sandbox/products', {
      token: topupToken,
      headers: ACCEPT,
    });
    assert.equal(wrong.status, 401);
  });

  test('reports and cards: another account, another environment or a bad id is 404', async () => {
    const mine = (await client.post('/orders', GOOD)).body.transactionId;
    const other = await server.caller('giftcards');
    for (const path of [`/reports/transactions/${mine}`, `/orders/transactions/${mine}/cards`]) {
      const answer = await other.get(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.errorCode, 'RESOURCE_NOT_FOUND');
    }
    for (const id of ['999999', 'abc', '-1', '1.5']) {
      assert.equal((await client.get(`/reports/transactions/${id}`)).status, 404, id);
      assert.equal((await client.get(`/orders/transactions/${id}/cards`)).status, 404, id);
    }
    // The same account's live credential does not see its sandbox transaction.
    const liveCredential = await server.admin.call(
      'POST',
      `/accounts/${client.account.accountId}/credentials`,
      {
        environment: 'live',
      },
    );
    const live = await server.admin.token(liveCredential.body, 'https://localhost/giftcards');
    const answer = await server.http.get(`/giftcards/reports/transactions/${mine}`, {
      token: live,
      headers: ACCEPT,
    });
    assert.equal(answer.status, 404);
  });
});

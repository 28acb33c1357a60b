import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { ACCEPT, assertProduct } from './helpers.ts';

// Issue 27: an account's `shapes` setting. `service` answers the live service's shapes on the gift
// card bases (docs/compatibility.md); `documented` (the default) answers the spec's, unchanged.
type Client = Caller;

const WRAPPER_FIELDS = [
  'content',
  'pageable',
  'totalElements',
  'totalPages',
  'last',
  'first',
  'sort',
  'number',
  'numberOfElements',
  'size',
  'empty',
];
const TEXT_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The documented map (one-key objects) as the one object the service shapes answer. */
const asObject = (map: Array<Record<string, number>>) => Object.assign({}, ...map);

describe('account shapes: service', () => {
  let server: TestServer;
  let documented: Client;
  let service: Client;
  const setShapes = (accountId: number, shapes: string) =>
    server.admin.call('PATCH', `/accounts/${accountId}`, { shapes });

  before(async () => {
    server = await startTestServer();
    documented = await server.caller('giftcards');
    service = await server.caller('giftcards');
    const changed = await setShapes(service.account.accountId, 'service');
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.shapes, 'service');
  });
  after(() => server.close());

  test('an account is documented unless changed; the admin API shows and validates the setting', async () => {
    const shown = await server.admin.call('GET', `/accounts/${documented.account.accountId}`);
    assert.equal(shown.body.shapes, 'documented');
    assert.equal(
      (await server.admin.call('GET', `/accounts/${service.account.accountId}`)).body.shapes,
      'service',
    );
    const bad = await setShapes(documented.account.accountId, 'live');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_REQUEST');
  });

  test('GET /products answers the paged wrapper around the same products, the map as one object', async () => {
    const bare = await documented.get('/products?countryCode=US&size=1000');
    const paged = await service.get('/products?countryCode=US&size=1000');
    assert.equal(paged.status, 200);
    assert.ok(Array.isArray(bare.body));
    assert.deepEqual(Object.keys(paged.body), WRAPPER_FIELDS);
    assert.equal(paged.body.totalElements, bare.body.length);
    assert.equal(paged.body.content.length, bare.body.length);
    for (const [i, p] of paged.body.content.entries()) {
      const same: Record<string, any> = bare.body[i];
      assert.deepEqual(p, {
        ...same,
        fixedRecipientToSenderDenominationsMap: asObject(same.fixedRecipientToSenderDenominationsMap),
      });
    }
    const fixed = paged.body.content.find(
      (p: { denominationType: string }) => p.denominationType === 'FIXED',
    );
    assert.ok(!Array.isArray(fixed.fixedRecipientToSenderDenominationsMap));
    assert.deepEqual(
      Object.keys(fixed.fixedRecipientToSenderDenominationsMap),
      fixed.fixedRecipientDenominations.map((d: number) => d.toFixed(2)),
    );
  });

  test('both shapes are sent as JSON with the headers of every other answer', async () => {
    const untouched = await documented.get('/product-categories');
    for (const answer of [
      await documented.get('/products?size=2'),
      await service.get('/products?size=2'),
      await documented.get('/reports/transactions'),
      await service.get('/reports/transactions'),
      await service.get('/products/11'),
    ]) {
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], untouched.headers['content-type']);
      assert.equal(answer.text, JSON.stringify(answer.body));
    }
  });

  test('GET /products pages: number and pageable are 0-based, totals count every match', async () => {
    const all = (await documented.get('/products?countryCode=US&size=1000')).body;
    const second = await service.get('/products?countryCode=US&page=2&size=3');
    const w = second.body;
    assert.equal(w.number, 1);
    assert.equal(w.size, 3);
    assert.equal(w.totalElements, all.length);
    assert.equal(w.totalPages, Math.ceil(all.length / 3));
    assert.equal(w.first, false);
    assert.equal(w.numberOfElements, 3);
    assert.deepEqual(w.pageable, {
      sort: { unsorted: true, sorted: false, empty: true },
      pageNumber: 1,
      pageSize: 3,
      offset: 3,
      paged: true,
      unpaged: false,
    });
    assert.deepEqual(
      w.content.map((p: { productId: number }) => p.productId),
      all.slice(3, 6).map((p: { productId: number }) => p.productId),
    );
    const past = await service.get('/products?countryCode=US&page=1000&size=3');
    assert.equal(past.body.empty, true);
    assert.equal(past.body.last, true);
    assert.deepEqual(past.body.content, []);
  });

  test('GET /products/{id} and /countries/{c}/products: the map as one object; the country list stays bare', async () => {
    const one = await service.get('/products/11');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.fixedRecipientToSenderDenominationsMap, {
      '10.00': 10,
      '25.00': 25,
      '50.00': 50,
    });
    const docOne = await documented.get('/products/11');
    assertProduct(docOne.body);
    assert.deepEqual(docOne.body.fixedRecipientToSenderDenominationsMap, [
      { '10.00': 10 },
      { '25.00': 25 },
      { '50.00': 50 },
    ]);

    const country = await service.get('/countries/US/products?size=5');
    assert.equal(country.status, 200);
    assert.ok(Array.isArray(country.body));
    assert.equal(country.body.length, 5);
    for (const p of country.body) assert.ok(!Array.isArray(p.fixedRecipientToSenderDenominationsMap));
  });

  test('GET /discounts answers the paged wrapper', async () => {
    const bare = [
      ...(await documented.get('/discounts?size=1000')).body,
      ...(await documented.get('/discounts?size=1000&page=2')).body,
    ];
    const paged = await service.get('/discounts?size=10');
    assert.equal(paged.status, 200);
    assert.deepEqual(Object.keys(paged.body), WRAPPER_FIELDS);
    assert.equal(paged.body.totalElements, bare.length);
    assert.deepEqual(paged.body.content, bare.slice(0, 10));
    assert.equal(paged.body.totalPages, Math.ceil(bare.length / 10));
  });

  test('GET /reports/transactions answers the paged wrapper with the total of every page', async () => {
    for (const id of ['shape-1', 'shape-2', 'shape-3']) {
      const order = await service.post('/orders', {
        productId: 11,
        quantity: 1,
        unitPrice: 10,
        senderName: 'Ada',
        customIdentifier: id,
      });
      assert.equal(order.status, 200, order.text);
      assert.equal(typeof order.body.transactionId, 'number');
    }
    const paged = await service.get('/reports/transactions?size=2');
    assert.equal(paged.status, 200);
    assert.deepEqual(Object.keys(paged.body), WRAPPER_FIELDS);
    assert.equal(paged.body.totalElements, 3);
    assert.equal(paged.body.totalPages, 2);
    assert.deepEqual(
      paged.body.content.map((t: { customIdentifier: string }) => t.customIdentifier),
      ['shape-3', 'shape-2'],
    );
    const filtered = await service.get('/reports/transactions?customIdentifier=shape-1');
    assert.equal(filtered.body.totalElements, 1);
    const one = await service.get(`/reports/transactions/${filtered.body.content[0].transactionId}`);
    assert.deepEqual(one.body, filtered.body.content[0]);
    // The documented account's own list stays a bare array.
    assert.deepEqual((await documented.get('/reports/transactions')).body, []);
  });

  test("the error envelope's timeStamp is yyyy-MM-dd HH:mm:ss on the gift card bases, a number elsewhere", async () => {
    const before = Date.now();
    const missing = await service.get('/reports/transactions/999999');
    assert.equal(missing.status, 404);
    assert.match(missing.body.timeStamp, TEXT_TIME);
    const at = Date.parse(`${missing.body.timeStamp.replace(' ', 'T')}Z`);
    assert.ok(at >= Math.floor(before / 1000) * 1000 - 1000 && at <= Date.now() + 1000);
    assert.deepEqual(Object.keys(missing.body), [
      'timeStamp',
      'message',
      'infoLink',
      'path',
      'errorCode',
      'details',
    ]);
    const invalid = await service.post('/orders', { productId: 11 });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.timeStamp, TEXT_TIME);
    const unknown = await service.get('/products/999999');
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.timeStamp, TEXT_TIME);
    assert.equal(typeof (await documented.get('/products/999999')).body.timeStamp, 'number');
    // top-ups, with a token of the same account: unchanged
    const topupToken = await server.admin.token(service.account, AUDIENCES.topupsSandbox);
    const topup = await server.http.get('/topups-sandbox/operators/999999', { token: topupToken });
    assert.equal(topup.status, 404);
    assert.equal(typeof topup.body.timeStamp, 'number');
  });

  test('top-up lists and token answers are the same for both accounts', async () => {
    const token = await server.admin.token(service.account, AUDIENCES.topupsSandbox);
    const operators = await server.http.get('/topups-sandbox/operators?size=2', { token });
    assert.equal(operators.status, 200);
    assert.equal(operators.body.size, 2);
    const denied = await server.http.post('/auth/oauth/token', {
      client_id: service.account.clientId,
      client_secret: 'wrong',
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.deepEqual(Object.keys(denied.body), ['error', 'error_description']);
  });

  test('kept answers are per shapes: two accounts alike but for the shapes, and a switch, get their own', async () => {
    for (let i = 0; i < 3; i++) {
      assert.ok(
        Array.isArray((await documented.get('/products/11')).body.fixedRecipientToSenderDenominationsMap),
      );
      assert.ok(
        !Array.isArray((await service.get('/products/11')).body.fixedRecipientToSenderDenominationsMap),
      );
      assert.ok(Array.isArray((await documented.get('/discounts')).body));
      assert.ok(!Array.isArray((await service.get('/discounts')).body));
    }
    // The switch is seen at once by the next request, answered from memory or not.
    const switching = await server.caller('giftcards');
    assert.ok(Array.isArray((await switching.get('/products?size=1')).body));
    assert.ok(Array.isArray((await switching.get('/products?size=1')).body));
    assert.equal((await setShapes(switching.account.accountId, 'service')).status, 200);
    assert.equal((await switching.get('/products?size=1')).body.totalElements > 0, true);
    assert.equal((await setShapes(switching.account.accountId, 'documented')).status, 200);
    assert.ok(Array.isArray((await switching.get('/products?size=1')).body));
  });

  test('every credential and both environments of the account take its shapes', async () => {
    const live = await server.admin.call('POST', `/accounts/${service.account.accountId}/credentials`, {
      environment: 'live',
    });
    assert.equal(live.status, 200);
    const token = await server.admin.token(live.body, AUDIENCES.giftcardsLive);
    const paged = await server.http.get('/giftcards/products?size=2', { token, headers: ACCEPT });
    assert.equal(paged.status, 200);
    assert.deepEqual(Object.keys(paged.body), WRAPPER_FIELDS);
  });
});

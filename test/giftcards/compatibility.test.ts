import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { seed } from './helpers.ts';

// decisions §9: what Reloadly's SDKs send or read under other names, served as extra fields and
// routes that leave the spec's own shapes unchanged (reloadly-sdk-java, java-sdk-giftcard).
describe('gift card compatibility aliases', () => {
  let server: TestServer;
  let client: Caller;
  before(async () => {
    server = await startTestServer();
  });
  // every case has an account of its own: no case sees another's orders
  beforeEach(async () => {
    client = await server.caller('giftcards');
  });
  after(() => server.close());

  test('GET /brands/{brandId}/redeem-instructions: one brand, as the Java SDK reads it', async () => {
    const answer = await client.get('/brands/1/redeem-instructions');
    assert.equal(answer.status, 200);
    const brand = seed.brands.find((b) => b.brandId === 1);
    assert.deepEqual(answer.body, {
      brandId: 1,
      brandName: brand.brandName,
      concise: brand.concise,
      verbose: brand.verbose,
    });
    assert.equal((await client.get('/brands/424242/redeem-instructions')).status, 404);
  });

  test('products also carry maxRecipientDenomination; transactions recipientPhone', async () => {
    const product = (await client.get('/products/1056')).body;
    assert.equal(product.maxRecipientDenomination, product.maxrecipientDenomination);
    assert.equal(product.maxRecipientDenomination, 1000);
    const order = await client.post('/orders', {
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'Ada',
      recipientPhoneDetails: { countryCode: 'NG', phoneNumber: '08031234567' },
    });
    assert.equal(order.status, 200, order.text);
    assert.equal(order.body.receipientPhone, 2348031234567);
    assert.equal(order.body.recipientPhone, '2348031234567');
  });

  test('reports take the Java SDK filters: status, productId, productName, brandId, brandName, recipientEmail', async () => {
    const a = await client.post('/orders', {
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'A',
      recipientEmail: 'a@example.com',
    });
    const b = await client.post('/orders', { productId: 25, quantity: 1, unitPrice: 10, senderName: 'B' });
    const ids = async (q: string) =>
      (await client.get(`/reports/transactions?${q}`)).body.map((t: any) => t.transactionId);
    assert.deepEqual(await ids('status=REFUNDED'), [b.body.transactionId]);
    assert.deepEqual(await ids('productId=25'), [b.body.transactionId]);
    assert.deepEqual(await ids('productName=sandbox%20refunded'), [b.body.transactionId]);
    assert.deepEqual(await ids('recipientEmail=a@example.com'), [a.body.transactionId]);
    assert.ok((await ids('brandId=999')).includes(a.body.transactionId));
    assert.ok((await ids('brandName=AIRGIFT')).includes(b.body.transactionId));
    assert.deepEqual(await ids('productName=%25'), [], 'a % is matched literally');
  });
});

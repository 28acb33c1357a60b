import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Admin, AirgiftError, GiftCards, toArray } from '../../sdk/src/index.ts';
import { ADMIN_KEY } from '../harness/client.ts';
import { type SdkServer, sandboxOptions, startSdkServer } from './helpers.ts';

/**
 * Issue 27: the SDK reads both shapes an account can choose (docs/compatibility.md) and returns the
 * same typed results. One account reads everything, switches to the service's shapes through the
 * admin SDK, and reads it all again: the data must be equal, only the pages' totals become known.
 */
describe('SDK: the same results whichever shapes the account answers', () => {
  let s: SdkServer;
  let giftcards: GiftCards;
  let admin: Admin;

  const snapshot = async () => {
    const products = await giftcards.products.list({ countryCode: 'US', size: 7 });
    return {
      products: products.content,
      productsLast: products.last,
      secondPage: (await giftcards.products.list({ countryCode: 'US', size: 7, page: 2 })).content,
      product: await giftcards.products.get(11),
      range: await giftcards.products.get(12),
      countryProducts: (await giftcards.countries.products('US', { size: 5 })).content,
      discounts: await toArray(giftcards.discounts.list({ size: 500 })),
      transactions: await toArray(giftcards.transactions.list({ size: 2 })),
      transaction: await giftcards.transactions.get(
        (await giftcards.transactions.list({ customIdentifier: 'sdk-shapes-1' })).content[0].transactionId,
      ),
      error: await giftcards.products.get(999999).catch((error: unknown) => error),
    };
  };

  before(async () => {
    s = await startSdkServer();
    giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    admin = new Admin({ adminKey: ADMIN_KEY, baseUrl: `${s.server.url}/admin`, fetch: s.fetch });
    for (const id of ['sdk-shapes-1', 'sdk-shapes-2', 'sdk-shapes-3']) {
      await giftcards.orders.create({
        productId: 11,
        quantity: 1,
        unitPrice: 10,
        senderName: 'sdk',
        customIdentifier: id,
      });
    }
  });
  after(() => s.close());

  test('products, discounts, transactions and errors read the same in both shapes', async () => {
    const documented = await snapshot();
    assert.equal((await admin.accounts.setShapes(s.account.accountId, 'service')).shapes, 'service');
    assert.equal((await admin.accounts.show(s.account.accountId)).shapes, 'service');
    const service = await snapshot();

    const { error: documentedError, ...documentedData } = documented;
    const { error: serviceError, ...serviceData } = service;
    assert.deepEqual(serviceData, documentedData);
    assert.deepEqual(service.product.fixedRecipientToSenderDenominationsMap, [
      { '10.00': 10 },
      { '25.00': 25 },
      { '50.00': 50 },
    ]);
    assert.equal(documented.transactions.length, 3);
    for (const error of [documentedError, serviceError]) {
      assert.ok(error instanceof AirgiftError);
      assert.equal(error.errorCode, 'INVALID_REQUEST');
      assert.equal(typeof error.timeStamp, 'number');
      assert.ok(Math.abs((error.timeStamp ?? 0) - Date.now()) < 60_000);
    }
  });

  test('pages tell their totals in the service shapes', async () => {
    await admin.accounts.setShapes(s.account.accountId, 'documented');
    const bare = await giftcards.transactions.list({ size: 2 });
    assert.equal(bare.totalElements, null);
    await admin.accounts.setShapes(s.account.accountId, 'service');
    const wrapped = await giftcards.transactions.list({ size: 2 });
    assert.equal(wrapped.totalElements, 3);
    assert.equal(wrapped.totalPages, 2);
    assert.equal(wrapped.page, 1);
    const next = await wrapped.nextPage();
    assert.equal(next?.content.length, 1);
    assert.equal(next?.last, true);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertEvery, assertExactFields } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertProduct, D, giftcardClient, round, seed, seedRate } from './helpers.ts';

// giftcards.md endpoints #3–#13: every field of every resource, every filter, every error row.
describe('gift card catalog', () => {
  let server: TestServer;
  let usd: Awaited<ReturnType<typeof giftcardClient>>;
  before(async () => {
    server = await startTestServer();
    usd = await giftcardClient(server);
  });
  after(() => server.close());

  test('GET /accounts/balance: the Balance resource', async () => {
    const answer = await usd.get('/accounts/balance');
    assert.equal(answer.status, 200);
    assertExactFields(
      answer.body,
      { balance: 'number', currencyCode: 'string', currencyName: 'string', updatedAt: 'string' },
      'balance',
    );
    assert.equal(answer.body.balance, 1000);
    assert.match(answer.body.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test('GET /product-categories lists every category as {id, name}', async () => {
    const answer = await usd.get('/product-categories');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, seed.categories.length);
    for (const c of answer.body) assertExactFields(c, { id: 'integer', name: 'string' }, 'category');
  });

  test('GET /countries lists countries with every field; /countries/{code} is one object', async () => {
    const all = await usd.get('/countries');
    assert.equal(all.status, 200);
    assert.ok(all.body.length >= 240);
    const spec = {
      isoName: 'string',
      name: 'string',
      continent: 'string',
      currencyCode: 'string',
      currencyName: 'string',
      currencySymbol: 'string',
      flag: 'string',
      callingCodes: 'array',
    } as const;
    for (const c of all.body) {
      assertExactFields(c, spec, c.isoName);
      for (const code of c.callingCodes) assert.match(code, /^\+\d+$/);
    }
    // by name, as the original lists them (issue 8)
    const names = all.body.map((c: { name: string }) => c.name);
    assert.deepEqual(
      names,
      [...names].sort((x: string, y: string) => x.localeCompare(y, 'en')),
    );
    assert.equal(names[0], 'Afghanistan');
    const ng = await usd.get('/countries/ng');
    assert.equal(ng.status, 200);
    assertExactFields(ng.body, spec, 'NG');
    assert.equal(ng.body.isoName, 'NG');
    assert.equal(ng.body.currencyCode, 'NGN');
    const unknown = await usd.get('/countries/ZZ');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, 'RESOURCE_NOT_FOUND');
  });

  test('GET /products pages through ACTIVE products with every field', async () => {
    const first = await usd.get('/products?size=50&page=1');
    assert.equal(first.status, 200);
    assert.equal(first.body.length, 50);
    for (const p of first.body) {
      assertProduct(p);
      assert.equal(p.status, 'ACTIVE');
      assert.equal(p.senderCurrencyCode, 'USD');
    }
    const second = await usd.get('/products?size=50&page=2');
    assert.notEqual(second.body[0].productId, first.body[0].productId);
    const defaults = await usd.get('/products');
    assert.equal(defaults.body.length, 200, 'default page size 200 (decisions §4)');
    const past = await usd.get('/products?size=1000&page=100');
    assert.deepEqual(past.body, []);
    for (const bad of ['page=0', 'size=0', 'size=1001', 'page=x']) {
      const answer = await usd.get(`/products?${bad}`);
      assert.equal(answer.status, 400, bad);
      assert.equal(answer.body.errorCode, 'INVALID_REQUEST');
    }
  });

  test('every filter of /products narrows the list as named', async () => {
    const byName = await usd.get('/products?productName=aMaZoN&size=1000');
    assert.ok(byName.body.length > 5);
    for (const p of byName.body) assert.match(p.productName, /amazon/i);
    const byCountry = await usd.get('/products?countryCode=ng&size=1000');
    assert.ok(byCountry.body.length > 0);
    for (const p of byCountry.body) assert.equal(p.country.isoName, 'NG');
    const byCategory = await usd.get('/products?productCategoryId=2&size=1000');
    assert.ok(byCategory.body.length > 0);
    for (const p of byCategory.body) assert.equal(p.category.id, 2);
    const noRange = await usd.get('/products?includeRange=false&size=1000');
    assert.ok(noRange.body.length > 0);
    for (const p of noRange.body) assert.equal(p.denominationType, 'FIXED');
    const noFixed = await usd.get('/products?includeFixed=false&size=1000');
    assert.ok(noFixed.body.length > 0);
    for (const p of noFixed.body) assert.equal(p.denominationType, 'RANGE');
    const neither = await usd.get('/products?includeFixed=false&includeRange=false');
    assert.deepEqual(neither.body, []);
    const combined = await usd.get('/products?countryCode=US&productName=amazon');
    assert.deepEqual(
      combined.body.map((p: any) => p.productId),
      [1840],
    );
    const bad = await usd.get('/products?productCategoryId=games');
    assert.equal(bad.status, 400);
  });

  test('GET /products/{id}: sender prices in the account currency; 400 for a bad or unknown id', async () => {
    const answer = await usd.get('/products/1840');
    assert.equal(answer.status, 200);
    assertProduct(answer.body);
    const p = answer.body;
    const s = seed.products.find((x) => x.productId === 1840);
    assert.equal(p.productName, s.productName);
    assert.deepEqual(p.fixedRecipientDenominations, s.fixedRecipientDenominations.map(Number));
    assert.deepEqual(p.fixedSenderDenominations, p.fixedRecipientDenominations);
    assert.deepEqual(p.fixedRecipientToSenderDenominationsMap[0], { '10.00': 10 });
    assert.equal(p.minRecipientDenomination, null);
    assert.equal(p.maxrecipientDenomination, null);
    for (const id of ['99999999', '5', 'abc', '-1']) {
      const bad = await usd.get(`/products/${id}`);
      assert.equal(bad.status, 400, id);
      assert.equal(bad.body.errorCode, 'INVALID_REQUEST');
    }
  });

  test('sender prices follow the account currency: JPY whole, KWD to 3 decimals', async () => {
    const range = seed.products.find(
      (x) => x.denominationType === 'RANGE' && x.recipientCurrencyCode === 'EUR',
    );
    for (const currency of ['JPY', 'KWD']) {
      const client = await giftcardClient(server, { currency, country: currency === 'JPY' ? 'JP' : 'KW' });
      const fixed = await client.get('/products/1840');
      assert.equal(fixed.body.senderCurrencyCode, currency);
      const expected = seed.products
        .find((x) => x.productId === 1840)
        .fixedRecipientDenominations.map((d: string) =>
          round(new D(d).times(seedRate('USD', currency)), currency).toNumber(),
        );
      assert.deepEqual(fixed.body.fixedSenderDenominations, expected);
      const ranged = await client.get(`/products/${range.productId}`);
      assert.equal(
        ranged.body.minSenderDenomination,
        round(new D(range.minRecipientDenomination).times(seedRate('EUR', currency)), currency).toNumber(),
      );
      assert.equal(ranged.body.maxrecipientDenomination, Number(range.maxRecipientDenomination));
      assert.deepEqual(ranged.body.fixedRecipientToSenderDenominationsMap, []);
      assert.equal(
        ranged.body.senderFee,
        round(new D(range.senderFee).times(seedRate('USD', currency)), currency).toNumber(),
      );
    }
  });

  test('GET /countries/{code}/products: an array of that country only; unknown country 404', async () => {
    const answer = await usd.get('/countries/de/products');
    assert.equal(answer.status, 200);
    assert.ok(answer.body.length > 0);
    for (const p of answer.body) {
      assertProduct(p);
      assert.equal(p.country.isoName, 'DE');
    }
    const unknown = await usd.get('/countries/ZZ/products');
    assert.equal(unknown.status, 404);
  });

  test('redeem instructions: per brand, and by product', async () => {
    const list = await usd.get('/redeem-instructions');
    assert.equal(list.status, 200);
    assert.equal(list.body.length, seed.brands.length + 1, 'the seed brands and the sandbox test brand');
    for (const r of list.body) {
      assertExactFields(
        r,
        { brandId: 'integer', brandName: 'string', concise: 'string', verbose: 'string' },
        'redeem',
      );
    }
    const one = await usd.get('/products/1840/redeem-instructions');
    assert.equal(one.status, 200);
    assertExactFields(
      one.body,
      { productId: 'integer', productName: 'string', concise: 'string', verbose: 'string' },
      'r',
    );
    assert.equal(one.body.concise, seed.brands.find((b) => b.brandId === 1).concise);
    const bad = await usd.get('/products/4/redeem-instructions');
    assert.equal(bad.status, 400);
  });

  test('GET /fx-rate prices an amount of a recipient currency in the account currency', async () => {
    const answer = await usd.get('/fx-rate?currencyCode=NGN&amount=5000');
    assert.equal(answer.status, 200);
    assertExactFields(
      answer.body,
      {
        senderCurrency: 'string',
        senderAmount: 'number',
        recipientCurrency: 'string',
        recipientAmount: 'number',
      },
      'fx',
    );
    assert.equal(answer.body.senderCurrency, 'USD');
    assert.equal(answer.body.recipientCurrency, 'NGN');
    assert.equal(answer.body.recipientAmount, 5000);
    assert.equal(
      answer.body.senderAmount,
      round(new D(5000).times(seedRate('NGN', 'USD')), 'USD').toNumber(),
    );
    for (const q of [
      'currencyCode=XYZ&amount=5',
      'currencyCode=NGN',
      'amount=5',
      'currencyCode=NGN&amount=abc',
    ]) {
      const bad = await usd.get(`/fx-rate?${q}`);
      assert.equal(bad.status, 400, q);
      assert.equal(bad.body.errorCode, 'INVALID_REQUEST');
    }
  });

  test('discounts: a paged array, and one object by product', async () => {
    const list = await usd.get('/discounts?size=20&page=2');
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 20);
    for (const d of list.body) {
      assertExactFields(d, { product: 'object', discountPercentage: 'number' }, 'discount');
      assertExactFields(
        d.product,
        { productId: 'integer', productName: 'string', countryCode: 'string', global: 'boolean' },
        'discount.product',
      );
    }
    const one = await usd.get('/products/1840/discounts');
    assert.equal(one.status, 200);
    assert.equal(one.body.discountPercentage, 3.5);
    assert.equal(one.body.product.productId, 1840);
    const bad = await usd.get('/products/7/discounts');
    assert.equal(bad.status, 400);
  });

  test('the sandbox lists its test products; live does not, and live serves the same catalog', async () => {
    const live = await giftcardClient(server, { environment: 'live' });
    const sandboxIds = (await usd.get('/products?size=20')).body.map((p: any) => p.productId);
    assert.ok(sandboxIds.includes(11) && sandboxIds.includes(25));
    const liveList = (await live.get('/products?size=20')).body;
    assertEvery(liveList, (p: any) => p.productId >= 1000, 'live products');
    assert.deepEqual(
      await live.get('/products/1840').then((a) => a.body),
      (await usd.get('/products/1840')).body,
    );
    assert.equal((await live.get('/products/11')).status, 400);
    const brands = (await live.get('/redeem-instructions')).body;
    assert.equal(brands.length, seed.brands.length);
  });
});

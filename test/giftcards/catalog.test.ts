import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { assertEvery, assertExactFields, type FieldSpec } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertProduct, D, round, seed, seedRate } from './helpers.ts';

// giftcards.md endpoints #3–#13: every field of every resource, every filter, every error row.
describe('gift card catalog', () => {
  let server: TestServer;
  let usd: Caller;
  before(async () => {
    server = await startTestServer();
    usd = await server.caller('giftcards');
  });
  after(() => server.close());

  /** `path` answered 200 with one object of exactly `fields` (named `what` in a failure): the object. */
  async function resourceAt(path: string, fields: FieldSpec, what: string) {
    const answer = await usd.get(path);
    assert.equal(answer.status, 200);
    assertExactFields(answer.body, fields, what);
    return answer.body;
  }

  /** `path` answered 200 with exactly `length` items, each of which `check` passes: the items. */
  async function listOf(path: string, length: number, check: (item: any) => void, message?: string) {
    const answer = await usd.get(path);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, length, message);
    for (const item of answer.body) check(item);
    return answer.body;
  }

  test('GET /accounts/balance: the Balance resource', async () => {
    const balance = await resourceAt(
      '/accounts/balance',
      { balance: 'number', currencyCode: 'string', currencyName: 'string', updatedAt: 'string' },
      'balance',
    );
    assert.equal(balance.balance, 1000);
    assert.match(balance.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test('GET /product-categories lists every category as {id, name}', async () => {
    await listOf('/product-categories', seed.categories.length, (c) =>
      assertExactFields(c, { id: 'integer', name: 'string' }, 'category'),
    );
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
    const ng = await resourceAt('/countries/ng', spec, 'NG');
    assert.equal(ng.isoName, 'NG');
    assert.equal(ng.currencyCode, 'NGN');
    const unknown = await usd.get('/countries/ZZ');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, 'RESOURCE_NOT_FOUND');
  });

  test('GET /products pages through ACTIVE products with every field', async () => {
    const first = await listOf('/products?size=50&page=1', 50, (p) => {
      assertProduct(p);
      assert.equal(p.status, 'ACTIVE');
      assert.equal(p.senderCurrencyCode, 'USD');
    });
    const second = await usd.get('/products?size=50&page=2');
    assert.notEqual(second.body[0].productId, first[0].productId);
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
      const client = await server.caller('giftcards', 'sandbox', {
        currency,
        country: currency === 'JPY' ? 'JP' : 'KW',
      });
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
    await listOf(
      '/redeem-instructions',
      seed.brands.length + 1,
      (r) =>
        assertExactFields(
          r,
          { brandId: 'integer', brandName: 'string', concise: 'string', verbose: 'string' },
          'redeem',
        ),
      'the seed brands and the sandbox test brand',
    );
    const one = await resourceAt(
      '/products/1840/redeem-instructions',
      { productId: 'integer', productName: 'string', concise: 'string', verbose: 'string' },
      'r',
    );
    assert.equal(one.concise, seed.brands.find((b) => b.brandId === 1).concise);
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
    await listOf('/discounts?size=20&page=2', 20, (d) => {
      assertExactFields(d, { product: 'object', discountPercentage: 'number' }, 'discount');
      assertExactFields(
        d.product,
        { productId: 'integer', productName: 'string', countryCode: 'string', global: 'boolean' },
        'discount.product',
      );
    });
    const one = await usd.get('/products/1840/discounts');
    assert.equal(one.status, 200);
    assert.equal(one.body.discountPercentage, 3.5);
    assert.equal(one.body.product.productId, 1840);
    const bad = await usd.get('/products/7/discounts');
    assert.equal(bad.status, 400);
  });

  test('the sandbox lists its test products; live does not, and live serves the same catalog', async () => {
    const live = await server.caller('giftcards', 'live');
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

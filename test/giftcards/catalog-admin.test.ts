import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { airgiftCli } from '../harness/cli.ts';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { seed } from './helpers.ts';

// The operator manages the catalog (issue 3): import a catalog file, export it, (de)activate a
// product, through the admin API and the airgift command. Ids and amount texts survive the trip.

const NEW_BRAND = {
  brandId: 990,
  brandName: 'Example Books',
  categoryId: 13,
  concise: 'Enter the code at checkout.',
  verbose: 'Enter the code at checkout on the Example Books website.',
  logoUrl: 'https://cdn.airgift.dev/logos/brands/example-books.png',
};
const NEW_PRODUCT = {
  productId: 990840,
  productName: 'Example Books US',
  brandId: 990,
  categoryId: 13,
  countryCode: 'US',
  global: false,
  supportsPreOrder: false,
  status: 'ACTIVE',
  denominationType: 'FIXED',
  recipientCurrencyCode: 'USD',
  fixedRecipientDenominations: ['15.00', '30.00'],
  minRecipientDenomination: null,
  maxRecipientDenomination: null,
  senderFee: '0.25',
  senderFeePercentage: '0.50',
  discountPercentage: '1.00',
  userIdRequired: false,
  logoUrls: [NEW_BRAND.logoUrl],
};

describe('catalog administration', () => {
  let server: TestServer;
  let client: Caller;
  let airgift: ReturnType<typeof airgiftCli>;
  before(async () => {
    server = await startTestServer();
    client = await server.caller('giftcards');
    airgift = airgiftCli(server.url);
  });
  after(() => server.close());

  test('export gives the seed catalog back with its ids and amount texts', async () => {
    const answer = await server.admin.call('GET', '/catalog/export');
    assert.equal(answer.status, 200);
    const { categories, brands, products } = answer.body;
    assert.equal(categories.length, seed.categories.length);
    assert.equal(brands.length, seed.brands.length + 1);
    assert.equal(products.length, seed.products.length + 7, 'the seed and the 7 sandbox test products');
    const byId = new Map(products.map((p: any) => [p.productId, p]));
    for (const p of seed.products.slice(0, 50)) assert.deepEqual(byId.get(p.productId), p);
    const kwd = seed.products.find((p) => p.recipientCurrencyCode === 'KWD');
    if (kwd) assert.deepEqual(byId.get(kwd.productId), kwd);
  });

  test('import adds and updates by id; an inconsistent file is refused whole', async () => {
    const first = await server.admin.call('POST', '/catalog/import', {
      categories: [],
      brands: [NEW_BRAND],
      products: [NEW_PRODUCT],
    });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { categories: 0, brands: 1, products: 1 });
    const shown = await client.get('/products/990840');
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.fixedRecipientDenominations, [15, 30]);
    assert.equal(shown.body.brand.brandName, 'Example Books');

    const changed = { ...NEW_PRODUCT, fixedRecipientDenominations: ['20.00'], discountPercentage: '2.50' };
    // A partial file: one product of a brand and category that exist needs only `products`.
    const partial = await server.admin.call('POST', '/catalog/import', { products: [changed] });
    assert.equal(partial.status, 200, partial.text);
    assert.deepEqual(partial.body, { categories: 0, brands: 0, products: 1 });
    const nothing = await server.admin.call('POST', '/catalog/import', {});
    assert.equal(nothing.status, 400, 'a file with none of the three lists imports nothing: refused');
    const updated = (await client.get('/products/990840')).body;
    assert.deepEqual(updated.fixedRecipientDenominations, [20]);
    assert.equal(updated.discountPercentage, 2.5);

    const orphan = { ...NEW_PRODUCT, productId: 991840, brandId: 12345 };
    const bad = await server.admin.call('POST', '/catalog/import', {
      categories: [],
      brands: [],
      products: [orphan],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_REQUEST');
    const wrongType = await server.admin.call('POST', '/catalog/import', {
      categories: [],
      brands: [],
      products: [{ ...NEW_PRODUCT, senderFee: 0.25 }],
    });
    assert.equal(wrongType.status, 400, 'amounts are decimal strings');
    const range = {
      ...NEW_PRODUCT,
      productId: 992840,
      denominationType: 'RANGE',
      minRecipientDenomination: '50.00',
    };
    const badRange = await server.admin.call('POST', '/catalog/import', {
      categories: [],
      brands: [],
      products: [range],
    });
    assert.equal(badRange.status, 400);
    assert.equal((await client.get('/products/991840')).status, 400);
  });

  test('the airgift command: catalog export, import and products (de)activate', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'airgift-catalog-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const exported = await airgift('catalog', 'export', '--json');
    const catalog = JSON.parse(exported.stdout);
    assert.ok(catalog.products.length > 1500);
    const file = join(dir, 'catalog.json');
    await writeFile(
      file,
      JSON.stringify({ products: [{ ...NEW_PRODUCT, productName: 'Example Books USA' }] }),
    );
    const imported = await airgift('catalog', 'import', file, '--json');
    assert.deepEqual(JSON.parse(imported.stdout), { categories: 0, brands: 0, products: 1 });
    assert.equal((await client.get('/products/990840')).body.productName, 'Example Books USA');
    // A directory in the seed layout (categories.json, brands.json, products.json) is read as one file.
    const seedLike = join(dir, 'seed');
    await mkdir(seedLike);
    await writeFile(
      join(seedLike, 'categories.json'),
      JSON.stringify([{ id: 13, name: 'Books & Education' }]),
    );
    await writeFile(join(seedLike, 'brands.json'), JSON.stringify([NEW_BRAND]));
    await writeFile(join(seedLike, 'products.json'), JSON.stringify([NEW_PRODUCT]));
    const fromDir = await airgift('catalog', 'import', seedLike);
    assert.match(fromDir.stdout, /imported 1 categories, 1 brands, 1 products/);
    // A directory may hold only some of the three files.
    const productsOnly = join(dir, 'products-only');
    await mkdir(productsOnly);
    await writeFile(join(productsOnly, 'products.json'), JSON.stringify([NEW_PRODUCT]));
    assert.match(
      (await airgift('catalog', 'import', productsOnly)).stdout,
      /imported 0 categories, 0 brands, 1 products/,
    );
    assert.equal((await client.get('/products/990840')).body.productName, 'Example Books US');

    const off = await airgift('products', 'deactivate', '1840', '--json');
    assert.deepEqual(JSON.parse(off.stdout), { productId: 1840, status: 'INACTIVE' });
    assert.equal((await client.get('/products/1840')).status, 400);
    const on = await airgift('products', 'activate', '1840');
    assert.match(on.stdout, /product 1840 is ACTIVE/);
    assert.equal((await client.get('/products/1840')).status, 200);
    await assert.rejects(airgift('products', 'activate', '7'), /404/);
    assert.ok(readFileSync(file, 'utf8').length > 0);
  });
});

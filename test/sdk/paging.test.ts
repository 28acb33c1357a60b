import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Admin, GiftCards, Topups, toArray } from '../../sdk/src/index.ts';
import { ADMIN_KEY } from '../harness/client.ts';
import { recordingFetch, type SdkServer, sandboxOptions, startSdkServer } from './helpers.ts';

// The async iterators walk every page of a list: bare arrays (gift cards, admin) until a short
// page, the top-up wrapper until `last`. Each case needs more than 3 pages.
describe('SDK paging', () => {
  let s: SdkServer;

  before(async () => {
    s = await startSdkServer();
  });
  after(() => s.close());

  const pagesAsked = (f: ReturnType<typeof recordingFetch>, path: string) =>
    f.sent
      .filter((s) => s.path.endsWith(path) && s.method === 'GET')
      .map((s) => new URL(s.url).searchParams.get('page'));

  test('admin accounts: 14 accounts, 3 per page, 5 pages', async () => {
    for (let i = 0; i < 13; i++) await s.server.admin.createAccount({ name: `paging ${i}`, fund: 0 });
    const recorder = recordingFetch(s.fetch);
    const admin = new Admin({ adminKey: ADMIN_KEY, baseUrl: `${s.server.url}/admin`, fetch: recorder });
    const all = await toArray(admin.accounts.iterate({ size: 3 }));
    const total = (await admin.accounts.list({ size: 1 })).total;
    assert.equal(total, 14);
    assert.equal(all.length, 14);
    assert.equal(new Set(all.map((a) => a.accountId)).size, 14);
    assert.deepEqual(pagesAsked(recorder, '/admin/accounts').slice(0, 5), ['1', '2', '3', '4', '5']);
  });

  test("an s.account's ledger: 9 entries, 2 per page", async () => {
    for (let i = 1; i <= 8; i++) await s.server.admin.fund(s.account.accountId, i);
    const admin = new Admin({ adminKey: ADMIN_KEY, baseUrl: `${s.server.url}/admin`, fetch: s.fetch });
    const entries = await toArray(
      admin.accounts.iterateLedger(s.account.accountId, { environment: 'sandbox', size: 2 }),
    );
    assert.deepEqual(
      entries.map((e) => e.amount),
      [8, 7, 6, 5, 4, 3, 2, 1, 1000],
    );
  });

  test('gift card products: every product of a country, 5 per page, in the order of one big page', async () => {
    const recorder = recordingFetch(s.fetch);
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', recorder));
    const whole = (await giftcards.products.list({ countryCode: 'US', size: 1000 })).content;
    assert.ok(whole.length > 15, `only ${whole.length} US products`);
    const paged: number[] = [];
    for await (const product of giftcards.products.list({ countryCode: 'US', size: 5 })) {
      assert.equal(product.country.isoName, 'US');
      paged.push(product.productId);
    }
    assert.deepEqual(
      paged,
      whole.map((p) => p.productId),
    );
    assert.equal(pagesAsked(recorder, '/products').length - 1, Math.floor(whole.length / 5) + 1);
  });

  test('top-up operators: the paged wrapper, followed until the last page', async () => {
    const recorder = recordingFetch(s.fetch);
    const topups = new Topups(sandboxOptions(s.server, s.account, 'topups', recorder));
    const first = await topups.operators.list({ size: 100 });
    assert.ok(first.totalPages! > 3, `only ${first.totalPages} pages`);
    const ids: number[] = [];
    for await (const operator of topups.operators.list({ size: 100, simplified: true }))
      ids.push(operator.operatorId);
    assert.equal(ids.length, first.totalElements);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(pagesAsked(recorder, '/operators').length - 1, first.totalPages);
  });

  test('stopping early fetches no more pages', async () => {
    const recorder = recordingFetch(s.fetch);
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', recorder));
    let seen = 0;
    for await (const _ of giftcards.products.list({ size: 5 })) if (++seen === 7) break;
    assert.deepEqual(pagesAsked(recorder, '/products'), ['1', '2']);
  });

  test('one page type for both products: figures, nextPage, and for await from a page', async () => {
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    const topups = new Topups(sandboxOptions(s.server, s.account, 'topups', s.fetch));
    const products = await giftcards.products.list({ countryCode: 'US', size: 5 });
    const operators = await topups.operators.list({ size: 5 });
    for (const page of [products, operators]) {
      assert.equal(page.page, 1);
      assert.equal(page.size, 5);
      assert.equal(page.first, true);
      assert.equal(page.last, false);
      assert.equal(page.content.length, 5);
      assert.match(page.requestId ?? '', /\S/, "the answer's request id");
    }
    assert.equal(products.totalElements, null, 'gift card lists do not count');
    assert.ok(operators.totalElements! > 5);
    const second = await operators.nextPage();
    assert.equal(second?.page, 2);
    assert.notDeepEqual(
      second?.content.map((o) => o.operatorId),
      operators.content.map((o) => o.operatorId),
    );
    // Gift card transactions and top-up transactions: the same Page, not an array and a wrapper.
    const giftcardTransactions = await giftcards.transactions.list({ size: 2 });
    const topupTransactions = await topups.transactions.list({ size: 2 });
    assert.equal(giftcardTransactions.constructor, topupTransactions.constructor);
    assert.ok(Array.isArray(giftcardTransactions.content) && Array.isArray(topupTransactions.content));
    const past = await giftcards.products.list({ countryCode: 'US', size: 5, page: 10_000 });
    assert.deepEqual([past.content.length, past.last, await past.nextPage()], [0, true, null]);
  });
});

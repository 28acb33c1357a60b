import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dec } from '../../src/lib/money.ts';
import { priceOrder } from '../../src/modules/giftcards/orders/order-pricing.ts';
import { AUDIENCES } from '../harness/client.ts';
import { type ResellerPair, resellerPairForSuite } from '../harness/reseller-pair.ts';
import { queryDatabase, type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { until } from '../harness/until.ts';

// Issue 8, catalogue sync: two real airgift processes (harness/reseller-pair.ts). The upstream serves its sandbox (seed products
// and its test products 11–25) to the reseller's account there; the reseller has the upstream set by
// the CLI with a 2% margin and syncs its LIVE gift card catalogue from it (`catalog sync`). The live
// catalogue then equals the upstream's by id, is never priced below what the upstream charges, loses
// a product the upstream deactivates at the next sync, and the reseller's sandbox keeps the seed.
const MARGIN = '2';

let pair: ResellerPair;
let upstream: ServerProcess;
let reseller: ServerProcess;
let upstreamToken: string;
let liveToken: string;
let resellerSandboxToken: string;

/** Every product of a list, all pages. */
async function allProducts(server: ServerProcess, base: string, token: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const a = await server.http.get(`${base}/products?size=1000&page=${page}`, { token });
    assert.equal(a.status, 200, `${a.text}\n${server.output().slice(-3000)}`);
    out.push(...a.body);
    if (a.body.length < 1000) return out;
  }
}

const upstreamProducts = () => allProducts(upstream, '/giftcards-sandbox', upstreamToken);
const liveProducts = () => allProducts(reseller, '/giftcards', liveToken);

/** What one card of `recipientAmount` costs an account, from a product's page (order-pricing.ts). */
function cardPrice(p: any, sender: number) {
  return priceOrder({
    quantity: 1,
    senderUnitPrice: dec(sender),
    senderFee: dec(p.senderFee),
    senderFeePercentage: String(p.senderFeePercentage),
    discountPercentage: String(p.discountPercentage),
    smsFeePerCard: null,
    currencyCode: p.senderCurrencyCode,
  }).amount;
}

/** A product's face values with their sender prices: FIXED all of them, RANGE its two ends. */
function senderPrices(p: any): Array<[string, number]> {
  if (p.denominationType === 'RANGE') {
    return [
      [String(p.minRecipientDenomination), p.minSenderDenomination],
      [String(p.maxRecipientDenomination), p.maxSenderDenomination],
    ];
  }
  return p.fixedRecipientToSenderDenominationsMap.flatMap((m: Record<string, number>) => Object.entries(m));
}

const sync = async () => JSON.parse((await pair.airgift('catalog', 'sync', 'giftcards', '--json')).stdout);

const { skip } = await resellerPairForSuite(
  {
    product: 'giftcards',
    upstreamEnv: { SANDBOX_PROCESSING_SECONDS: '1' },
    resellerEnv: { UPSTREAM_SYNC_MINUTES: '0' },
    setArgs: ['--margin-percent', MARGIN],
  },
  async (p) => {
    pair = p;
    ({ upstream, reseller, upstreamToken, liveToken } = p);
    resellerSandboxToken = await reseller.token(AUDIENCES.giftcardsSandbox);
  },
);

test('before the first sync live serves the seeded catalogue, without the sandbox test products', {
  skip,
}, async () => {
  const seeded = await liveProducts();
  assert.ok(seeded.length > 100);
  assert.ok(!seeded.some((p) => p.productId >= 1 && p.productId <= 99));
  const test11 = await reseller.http.get('/giftcards/products/11', { token: liveToken });
  assert.equal(test11.status, 400, test11.text);
});

test("catalog sync: the reseller's live products equal the upstream's by id, test products 11–25 included", {
  skip,
}, async () => {
  const theirs = await upstreamProducts();
  const result = await sync();
  assert.equal(result.product, 'giftcards');
  assert.equal(result.marginPercent, Number(MARGIN));
  assert.equal(result.counts.products, theirs.length);
  assert.deepEqual(result.skipped, []);
  const ours = await liveProducts();
  assert.deepEqual(
    ours.map((p) => p.productId).sort((a, b) => a - b),
    theirs.map((p) => p.productId).sort((a, b) => a - b),
  );
  for (let id = 11; id <= 25; id++) {
    if (theirs.some((p) => p.productId === id))
      assert.ok(
        ours.some((p) => p.productId === id),
        `test product ${id}`,
      );
  }
  const byId = new Map(theirs.map((p) => [p.productId, p]));
  const pricesLeftOut = (p: any) => {
    const { senderFee, senderFeePercentage, discountPercentage, ...rest } = p;
    return rest;
  };
  for (const p of ours)
    assert.deepEqual(pricesLeftOut(p), pricesLeftOut(byId.get(p.productId)), `product ${p.productId}`);
  // categories and redeem instructions came along
  const cats = await reseller.http.get('/giftcards/product-categories', { token: liveToken });
  const upCats = await upstream.http.get('/giftcards-sandbox/product-categories', { token: upstreamToken });
  assert.deepEqual(cats.body, upCats.body);
  const shown = JSON.parse((await pair.airgift('upstream', 'show', '--json')).stdout).items[0];
  assert.equal(shown.lastSyncAt, result.syncedAt);
});

test('never below cost: every synced product and face value costs an account at least what the upstream charges', {
  skip,
}, async () => {
  const theirs = new Map((await upstreamProducts()).map((p) => [p.productId, p]));
  let checked = 0;
  let above = 0;
  for (const ours of await liveProducts()) {
    const up = theirs.get(ours.productId);
    assert.equal(ours.senderCurrencyCode, up.senderCurrencyCode, 'one currency (USD both)');
    const upPrices = new Map(senderPrices(up).map(([r, s]) => [Number(r), s]));
    for (const [recipient, sender] of senderPrices(ours)) {
      const ourPrice = cardPrice(ours, sender);
      const theirPrice = cardPrice(up, upPrices.get(Number(recipient))!);
      assert.ok(
        ourPrice.gte(theirPrice),
        `product ${ours.productId} ${recipient}: ${ourPrice} < ${theirPrice}`,
      );
      if (ourPrice.gt(theirPrice)) above++;
      checked++;
    }
  }
  assert.ok(checked > 1000, `checked ${checked} prices`);
  assert.ok(above > checked / 2, 'the margin shows in most prices');

  // and a real order: what the reseller debits its account is at least what the upstream debits it
  const a = await reseller.http.post(
    '/giftcards/orders',
    { productId: 1840, quantity: 1, unitPrice: 10, senderName: 'sync test', customIdentifier: 'sync-cost-1' },
    { token: liveToken },
  );
  assert.equal(a.status, 200, a.text);
  const [upT] = (
    await upstream.http.get(
      `/giftcards-sandbox/reports/transactions?customIdentifier=ag-live-${a.body.transactionId}`,
      {
        token: upstreamToken,
      },
    )
  ).body;
  assert.ok(dec(a.body.amount).gte(dec(upT.amount)), `${a.body.amount} >= ${upT.amount}`);
  const expected = cardPrice(
    (await liveProducts()).find((p) => p.productId === 1840),
    10,
  );
  assert.equal(dec(a.body.amount).toString(), expected.toString(), 'the order costs what the page says');
});

test('a product the upstream deactivates leaves live at the next sync; the sandbox keeps the seed', {
  skip,
}, async () => {
  const sandboxBefore = await allProducts(reseller, '/giftcards-sandbox', resellerSandboxToken);
  assert.equal((await upstream.admin.call('POST', '/products/1036/deactivate')).status, 200);
  try {
    assert.equal((await reseller.http.get('/giftcards/products/1036', { token: liveToken })).status, 200);
    const r = await sync();
    assert.ok(r.counts.products > 100);
    const gone = await reseller.http.get('/giftcards/products/1036', { token: liveToken });
    assert.equal(gone.status, 400, gone.text);
    assert.ok(!(await liveProducts()).some((p) => p.productId === 1036));
    const sandboxAfter = await allProducts(reseller, '/giftcards-sandbox', resellerSandboxToken);
    assert.deepEqual(sandboxAfter, sandboxBefore, 'the sandbox catalogue is the seeded one, untouched');
    assert.ok(sandboxAfter.some((p) => p.productId === 1036));
  } finally {
    await upstream.admin.call('POST', '/products/1036/activate');
  }
});

test('the schedule: a second reseller server with UPSTREAM_SYNC_MINUTES syncs by itself, and both serve it', {
  skip,
}, async () => {
  const [{ last_sync_at: before }] = await queryDatabase<{ last_sync_at: Date }>(
    reseller.database,
    'SELECT last_sync_at FROM upstreams',
  );
  assert.equal((await upstream.admin.call('POST', '/products/1056/deactivate')).status, 200);
  // 0.02 minutes: due 1.2 s after the last sync
  const scheduled = await startServerProcess({ UPSTREAM_SYNC_MINUTES: '0.02' }, reseller);
  try {
    await until(
      'the scheduled sync to remove 1056 from live, seen by the first server',
      async () => (await reseller.http.get('/giftcards/products/1056', { token: liveToken })).status === 400,
      20_000,
      200,
    );
    const [{ last_sync_at: after }] = await queryDatabase<{ last_sync_at: Date }>(
      reseller.database,
      'SELECT last_sync_at FROM upstreams',
    );
    assert.ok(after > before);
  } finally {
    await scheduled.cleanup();
    await upstream.admin.call('POST', '/products/1056/activate');
  }
});

/** The reseller's live order of `productId` (10 USD face value), and what the upstream holds for it. */
async function liveOrder(productId: number, customIdentifier: string) {
  const a = await reseller.http.post(
    '/giftcards/orders',
    { productId, quantity: 1, unitPrice: 10, senderName: 'sync test', customIdentifier },
    { token: liveToken },
  );
  return a;
}

async function upstreamTransactionsOf(customIdentifier: string): Promise<any[]> {
  const [mine] = (
    await reseller.http.get(`/giftcards/reports/transactions?customIdentifier=${customIdentifier}`, {
      token: liveToken,
    })
  ).body;
  const a = await upstream.http.get(
    `/giftcards-sandbox/reports/transactions?customIdentifier=ag-live-${mine.transactionId}`,
    { token: upstreamToken },
  );
  assert.equal(a.status, 200, a.text);
  return a.body;
}

/** The order's status once it is `expected` (FAILED still moves to REFUNDED), or the last seen. */
async function finalStatus(customIdentifier: string, expected: string, ms = 20_000): Promise<string> {
  let last: string | undefined;
  const seen = async () => {
    const [t] = (
      await reseller.http.get(`/giftcards/reports/transactions?customIdentifier=${customIdentifier}`, {
        token: liveToken,
      })
    ).body;
    last = t?.status;
    return last === expected;
  };
  await until(`${customIdentifier} ${expected}`, seen, ms, 200).catch(() => undefined);
  return last as string;
}

test("live orders of the upstream's synced test products: each outcome, bought once, ledgers clean", {
  skip,
}, async () => {
  const cases: Array<[product: number, id: string, first: string, final: string]> = [
    [11, 'test-11', 'SUCCESSFUL', 'SUCCESSFUL'],
    [21, 'test-21', 'PROCESSING', 'SUCCESSFUL'],
    [25, 'test-25', 'REFUNDED', 'REFUNDED'],
    [24, 'test-24', 'FAILED', 'REFUNDED'],
  ];
  for (const [product, id, first, final] of cases) {
    const a = await liveOrder(product, id);
    assert.equal(a.status, 200, `${product}: ${a.text}`);
    assert.equal(a.body.status, first, `product ${product} first answer`);
    assert.equal(await finalStatus(id, final), final, `product ${product} in the end`);
    assert.equal(
      (await upstreamTransactionsOf(id)).length,
      1,
      `product ${product}: one upstream transaction`,
    );
  }
  // 22 out of stock without preOrder: refused with the upstream's code, nothing kept
  const before = (await reseller.http.get('/giftcards/accounts/balance', { token: liveToken })).body.balance;
  const refused = await liveOrder(22, 'test-22');
  assert.equal(refused.status, 422, refused.text);
  assert.equal(
    (await reseller.http.get('/giftcards/accounts/balance', { token: liveToken })).body.balance,
    before,
  );
  await pair.assertAudits();
});

test('without the upstream, live serves the seeded catalogue again; catalog sync then answers 404', {
  skip,
}, async () => {
  await pair.airgift('upstream', 'remove', 'giftcards', '--json');
  // this server reloads at once (the admin change), the schedule's 30 s bound is for the others
  await until(
    'test product 11 to leave live with the upstream',
    async () => (await reseller.http.get('/giftcards/products/11', { token: liveToken })).status === 400,
    10_000,
    200,
  );
  assert.equal((await reseller.http.get('/giftcards/products/1840', { token: liveToken })).status, 200);
  await assert.rejects(pair.airgift('catalog', 'sync', 'giftcards', '--json'), /404|RESOURCE_NOT_FOUND/);
});

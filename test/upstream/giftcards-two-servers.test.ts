import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  placedWhileStalled,
  type ResellerPair,
  resellerPairForSuite,
  upstreamBalanceRunsOut,
} from '../harness/reseller-pair.ts';
import {
  cutDatabase,
  queryDatabase,
  restoreDatabase,
  type ServerProcess,
} from '../harness/server-process.ts';
import { until } from '../harness/until.ts';

// Issue 8: live gift cards bought from an upstream. Two real airgift processes, each on its own
// PostgreSQL database: the upstream (its sandbox base serves the reseller's account there) and the
// reseller (live, its upstream set with the CLI), with a real TCP proxy between them that can hold
// the upstream's answers or everything (harness/reseller-pair.ts). Each case ends with the reseller's
// ledger audit empty and the upstream holding exactly one transaction per reseller order that it took.
const PRODUCT = 1840; // Amazon US, FIXED, 10 USD among its denominations: SUCCESSFUL at once in a sandbox

let pair: ResellerPair;
let upstream: ServerProcess;
let reseller: ServerProcess;
let upstreamToken: string;
let resellerToken: string;
let resellerAccountId: number;

const order = (body: Record<string, unknown>) =>
  reseller.http.post(
    '/giftcards/orders',
    { productId: PRODUCT, quantity: 1, unitPrice: 10, senderName: 'Reseller test', ...body },
    { token: resellerToken },
  );

const resellerTransaction = async (id: number) =>
  (await reseller.http.get(`/giftcards/reports/transactions/${id}`, { token: resellerToken })).body;

/** The reseller's cards of `id` and the upstream's of its transaction: the same codes. */
async function sameCodes(id: number) {
  const [theirs] = await pair.atUpstreamFor(id);
  const mine = await reseller.http.get(`/giftcards/orders/transactions/${id}/cards`, {
    token: resellerToken,
  });
  const up = await upstream.http.get(`/giftcards-sandbox/orders/transactions/${theirs.transactionId}/cards`, {
    token: upstreamToken,
  });
  assert.equal(mine.status, 200, mine.text);
  assert.equal(up.status, 200, up.text);
  // the exact text of the codes (JSON numbers of 16 digits: compared as written)
  assert.equal(mine.text.replace(/\s/g, ''), up.text.replace(/\s/g, ''));
  assert.ok(mine.body.length === 1);
}

const { skip } = await resellerPairForSuite(
  {
    product: 'giftcards',
    resellerEnv: { UPSTREAM_TIMEOUT_SECONDS: '2' },
  },
  (p) => {
    pair = p;
    ({ upstream, reseller, upstreamToken } = p);
    resellerToken = p.liveToken;
    resellerAccountId = p.liveAccountId;
    assert.deepEqual(p.setOutput.balance, { balance: 1000, currencyCode: 'USD' });
  },
);

test('a reseller order is bought once at the upstream and answers its very codes', { skip }, async () => {
  const before = await pair.upstreamBalance();
  const a = await order({ customIdentifier: 'codes-1' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'SUCCESSFUL');
  await sameCodes(a.body.transactionId);
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 1);
  assert.ok((await pair.upstreamBalance()) < before, 'the upstream debited the reseller');
  await pair.assertAudits();
});

test(
  "the upstream's balance runs out: refunded at once, 503, visible in upstream show and the log",
  {
    skip,
  },
  () => upstreamBalanceRunsOut(pair, (customIdentifier) => order({ customIdentifier })),
);

test('the upstream answers 503 (its database is down): passed on with Retry-After, refunded at once, nothing taken there', {
  skip,
}, async () => {
  const before = await pair.resellerBalance();
  await cutDatabase(upstream.database);
  let refused: Awaited<ReturnType<typeof order>>;
  try {
    refused = await order({ customIdentifier: 'unavailable-1' });
  } finally {
    await restoreDatabase(upstream.database);
  }
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  assert.match(String(refused.headers['retry-after']), /^\d+$/, 'Retry-After');
  const t = await pair.resellerTransactionBy('unavailable-1');
  assert.equal(t.status, 'REFUNDED');
  assert.equal(await pair.resellerBalance(), before, 'refunded at once');
  // the upstream's own answer (not ours for an unreachable upstream): the request reached it, refused
  const [call] = await queryDatabase<{ state: string; attempts: number; last_error: string }>(
    reseller.database,
    "SELECT state, attempts, last_error FROM upstream_calls WHERE product = 'giftcards' AND transaction_id = $1",
    [t.transactionId],
  );
  assert.equal(call.state, 'refused');
  assert.equal(call.attempts, 1, 'sent once');
  assert.match(call.last_error, /^HTTP 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT/);
  await until('the upstream ready again', async () => (await upstream.http.get('/ready')).status === 200);
  assert.equal((await pair.atUpstreamFor(t.transactionId)).length, 0, 'the upstream took nothing');
  await pair.assertAudits();
});

test('the upstream killed mid-order (its answer held) and restarted: reconciled, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const pending = order({ customIdentifier: 'killed-1' });
  // the reseller recorded its order; the upstream has bought it, its answer held in the proxy
  const mine = await until('the reseller order', () => pair.resellerTransactionBy('killed-1'));
  upstream = await pair.killUpstreamMidOrder(mine.transactionId, pending);
  const done = await until('the reconciled order', async () => {
    const t = await resellerTransaction(mine.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  assert.equal(done.status, 'SUCCESSFUL');
  assert.equal((await pair.atUpstreamFor(mine.transactionId)).length, 1, 'bought once');
  await sameCodes(mine.transactionId);
  await pair.assertAudits();
});

test('a call that times out before reaching the upstream: PROCESSING, then provably absent, bought once', {
  skip,
}, async () => {
  const a = await placedWhileStalled(pair, () => order({ customIdentifier: 'stalled-1' }));
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 0, 'nothing reached the upstream');
  pair.proxy.resume();
  await until('the order bought after reconciliation', async () => {
    const t = await resellerTransaction(a.body.transactionId);
    return t.status === 'SUCCESSFUL';
  });
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 1, 'bought once');
  await sameCodes(a.body.transactionId);
  await pair.assertAudits();
});

test('unknown, then refused when sent again (the upstream ran out meanwhile): the worker refunds it', {
  skip,
}, async () => {
  pair.proxy.stall('both');
  const a = await order({ customIdentifier: 'late-refusal-1' });
  assert.equal(a.body.status, 'PROCESSING', a.text);
  await pair.drainUpstream(1);
  pair.proxy.resume();
  const t = await until('the refund by the worker', async () => {
    const r = await resellerTransaction(a.body.transactionId);
    return r.status === 'REFUNDED' && r;
  });
  assert.equal(t.status, 'REFUNDED');
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 0, 'nothing bought');
  await pair.fundUpstream(500);
  await pair.assertAudits();
});

test('a timeout after the upstream bought (its answer held): reconciled from its report, not bought again', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const a = await order({ customIdentifier: 'slow-answer-1' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 1, 'the upstream bought it');
  pair.proxy.resume();
  await until(
    'the order reconciled',
    async () => (await resellerTransaction(a.body.transactionId)).status === 'SUCCESSFUL',
  );
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 1, 'still one');
  await sameCodes(a.body.transactionId);
  await pair.assertAudits();
  // every reseller order of this suite that reached the upstream is there exactly once
  const all = (await reseller.http.get('/giftcards/reports/transactions?size=100', { token: resellerToken }))
    .body;
  for (const t of all) {
    const there = await pair.atUpstreamFor(t.transactionId);
    assert.equal(there.length, t.status === 'REFUNDED' ? 0 : 1, `transaction ${t.transactionId}`);
  }
  assert.ok(resellerAccountId > 0);
});

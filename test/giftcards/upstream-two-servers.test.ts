import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ResellerPair, startResellerPair } from '../harness/reseller-pair.ts';
import { postgresForTests } from '../harness/server.ts';
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
const pg = await postgresForTests();
const PRODUCT = 1840; // Amazon US, FIXED, 10 USD among its denominations: SUCCESSFUL at once in a sandbox

let pair: ResellerPair;
let upstream: ServerProcess;
let reseller: ServerProcess;
let atUpstream: ResellerPair['atUpstream'];
let upstreamToken: string;
let resellerToken: string;
let resellerAccountId: number;

const admin = (server: ServerProcess, method: string, path: string, body?: unknown) =>
  pair.admin(server, method, path, body);

const airgift = (...args: string[]) => pair.airgift(...args);

const order = (body: Record<string, unknown>) =>
  reseller.http.post(
    '/giftcards/orders',
    { productId: PRODUCT, quantity: 1, unitPrice: 10, senderName: 'Reseller test', ...body },
    { token: resellerToken },
  );

const resellerTransaction = async (id: number) =>
  (await reseller.http.get(`/giftcards/reports/transactions/${id}`, { token: resellerToken })).body;

/** The upstream's transactions carrying the customIdentifier the reseller derives for `id`. */
async function atUpstreamFor(id: number): Promise<any[]> {
  const a = await upstream.http.get(
    `/giftcards-sandbox/reports/transactions?customIdentifier=ag-live-${id}`,
    {
      token: upstreamToken,
    },
  );
  assert.equal(a.status, 200, a.text);
  return a.body;
}

async function upstreamBalance(): Promise<number> {
  return (await upstream.http.get('/giftcards-sandbox/accounts/balance', { token: upstreamToken })).body
    .balance;
}

async function auditsAreEmpty() {
  for (const s of [reseller, upstream]) {
    const audit = await admin(s, 'GET', '/ledger/audit');
    assert.deepEqual(
      audit.body.discrepancies,
      [],
      `ledger audit of ${s === reseller ? 'the reseller' : 'the upstream'}`,
    );
  }
}

/** The reseller's cards of `id` and the upstream's of its transaction: the same codes. */
async function sameCodes(id: number) {
  const [theirs] = await atUpstreamFor(id);
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

before(async () => {
  if (!pg) return;
  pair = await startResellerPair({
    product: 'giftcards',
    resellerEnv: { UPSTREAM_TIMEOUT_SECONDS: '2' },
  });
  ({ upstream, reseller, atUpstream, upstreamToken } = pair);
  resellerToken = pair.liveToken;
  resellerAccountId = pair.liveAccountId;
  assert.deepEqual(pair.setOutput.balance, { balance: 1000, currencyCode: 'USD' });
});

after(async () => {
  await pair?.stop();
});

const skip = !pg && 'PostgreSQL not reachable';

test('a reseller order is bought once at the upstream and answers its very codes', { skip }, async () => {
  const before = await upstreamBalance();
  const a = await order({ customIdentifier: 'codes-1' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'SUCCESSFUL');
  await sameCodes(a.body.transactionId);
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 1);
  assert.ok((await upstreamBalance()) < before, 'the upstream debited the reseller');
  await auditsAreEmpty();
});

test("the upstream's balance runs out: refunded at once, 503, visible in upstream show and the log", {
  skip,
}, async () => {
  const balance = await upstreamBalance();
  const drained = await admin(upstream, 'POST', `/accounts/${atUpstream.accountId}/adjust`, {
    environment: 'sandbox',
    amount: -(balance - 1),
    reason: 'test: leave 1 USD',
  });
  assert.equal(drained.status, 200, drained.text);
  const resellerBefore = (await reseller.http.get('/giftcards/accounts/balance', { token: resellerToken }))
    .body.balance;

  const refused = await order({ customIdentifier: 'broke-1' });
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  const [t] = (
    await reseller.http.get('/giftcards/reports/transactions?customIdentifier=broke-1', {
      token: resellerToken,
    })
  ).body;
  assert.equal(t.status, 'REFUNDED');
  assert.equal(
    (await reseller.http.get('/giftcards/accounts/balance', { token: resellerToken })).body.balance,
    resellerBefore,
    'nothing kept',
  );
  assert.equal((await atUpstreamFor(t.transactionId)).length, 0, 'the upstream took nothing');
  const shown = JSON.parse((await airgift('upstream', 'show', '--json')).stdout).items[0];
  assert.equal(shown.health.insufficientBalance, true);
  assert.equal(shown.balance.balance, 1);
  await until('the warning in the log', async () =>
    /upstream giftcards: the upstream's balance/.test(reseller.output()),
  );

  // funded again: the next order is taken and the flag clears
  await admin(upstream, 'POST', `/accounts/${atUpstream.accountId}/fund`, {
    environment: 'sandbox',
    amount: 500,
    reason: 'test: funded again',
  });
  const ok = await order({ customIdentifier: 'broke-2' });
  assert.equal(ok.body.status, 'SUCCESSFUL', ok.text);
  const again = JSON.parse((await airgift('upstream', 'show', '--json')).stdout).items[0];
  assert.equal(again.health.insufficientBalance, false);
  await auditsAreEmpty();
});

test('the upstream answers 503 (its database is down): passed on with Retry-After, refunded at once, nothing taken there', {
  skip,
}, async () => {
  const balance = async () =>
    (await reseller.http.get('/giftcards/accounts/balance', { token: resellerToken })).body.balance;
  const before = await balance();
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
  const [t] = (
    await reseller.http.get('/giftcards/reports/transactions?customIdentifier=unavailable-1', {
      token: resellerToken,
    })
  ).body;
  assert.equal(t.status, 'REFUNDED');
  assert.equal(await balance(), before, 'refunded at once');
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
  assert.equal((await atUpstreamFor(t.transactionId)).length, 0, 'the upstream took nothing');
  await auditsAreEmpty();
});

test('the upstream killed mid-order (its answer held) and restarted: reconciled, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const pending = order({ customIdentifier: 'killed-1' });
  // the reseller recorded its order; the upstream has bought it, its answer held in the proxy
  const mine = await until('the reseller order', async () => {
    const list = (
      await reseller.http.get('/giftcards/reports/transactions?customIdentifier=killed-1', {
        token: resellerToken,
      })
    ).body;
    return list[0];
  });
  await until('the upstream transaction', async () => (await atUpstreamFor(mine.transactionId)).length === 1);
  upstream.child.kill('SIGKILL');
  await upstream.exited;

  const answered = await pending;
  assert.equal(answered.status, 200, answered.text);
  assert.equal(answered.body.status, 'PROCESSING', 'outcome unknown: kept PROCESSING');

  upstream = await pair.restartUpstream();
  pair.proxy.resume();
  const done = await until('the reconciled order', async () => {
    const t = await resellerTransaction(mine.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  assert.equal(done.status, 'SUCCESSFUL');
  assert.equal((await atUpstreamFor(mine.transactionId)).length, 1, 'bought once');
  await sameCodes(mine.transactionId);
  await auditsAreEmpty();
});

test('a call that times out before reaching the upstream: PROCESSING, then provably absent, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('both');
  const started = Date.now();
  const a = await order({ customIdentifier: 'stalled-1' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.ok(Date.now() - started >= 1900, 'answered after UPSTREAM_TIMEOUT_SECONDS');
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 0, 'nothing reached the upstream');
  pair.proxy.resume();
  await until('the order bought after reconciliation', async () => {
    const t = await resellerTransaction(a.body.transactionId);
    return t.status === 'SUCCESSFUL';
  });
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 1, 'bought once');
  await sameCodes(a.body.transactionId);
  await auditsAreEmpty();
});

test('unknown, then refused when sent again (the upstream ran out meanwhile): the worker refunds it', {
  skip,
}, async () => {
  pair.proxy.stall('both');
  const a = await order({ customIdentifier: 'late-refusal-1' });
  assert.equal(a.body.status, 'PROCESSING', a.text);
  const balance = await upstreamBalance();
  await admin(upstream, 'POST', `/accounts/${atUpstream.accountId}/adjust`, {
    environment: 'sandbox',
    amount: -(balance - 1),
    reason: 'test: leave 1 USD',
  });
  pair.proxy.resume();
  const t = await until('the refund by the worker', async () => {
    const r = await resellerTransaction(a.body.transactionId);
    return r.status === 'REFUNDED' && r;
  });
  assert.equal(t.status, 'REFUNDED');
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 0, 'nothing bought');
  await admin(upstream, 'POST', `/accounts/${atUpstream.accountId}/fund`, {
    environment: 'sandbox',
    amount: 500,
    reason: 'test: funded again',
  });
  await auditsAreEmpty();
});

test('a timeout after the upstream bought (its answer held): reconciled from its report, not bought again', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const a = await order({ customIdentifier: 'slow-answer-1' });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 1, 'the upstream bought it');
  pair.proxy.resume();
  await until(
    'the order reconciled',
    async () => (await resellerTransaction(a.body.transactionId)).status === 'SUCCESSFUL',
  );
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 1, 'still one');
  await sameCodes(a.body.transactionId);
  await auditsAreEmpty();
  // every reseller order of this suite that reached the upstream is there exactly once
  const all = (await reseller.http.get('/giftcards/reports/transactions?size=100', { token: resellerToken }))
    .body;
  for (const t of all) {
    const there = await atUpstreamFor(t.transactionId);
    assert.equal(there.length, t.status === 'REFUNDED' ? 0 : 1, `transaction ${t.transactionId}`);
  }
  assert.ok(resellerAccountId > 0);
});

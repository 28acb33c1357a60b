import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ResellerPair, startResellerPair } from '../harness/reseller-pair.ts';
import { postgresForTests } from '../harness/server.ts';
import type { ServerProcess } from '../harness/server-process.ts';
import { until } from '../harness/until.ts';
import { VENDOR_ACCEPT } from './helpers.ts';

// Issue 8: live top-ups bought from an upstream. Two real airgift processes, each on its own
// PostgreSQL database: the upstream (its sandbox base serves the reseller's account there, its test
// numbers force each outcome) and the reseller (live, its upstream set with the CLI), with a real TCP
// proxy between them that can hold the upstream's answers or everything (harness/reseller-pair.ts).
// Each case ends with both ledger audits empty and the upstream holding exactly one transaction per
// reseller top-up that reached it.
const pg = await postgresForTests();
const MTN = 1001; // MTN Nigeria airtime: RANGE, local amounts in NGN
const MTN_PIN = 1004; // MTN Nigeria PIN: FIXED vouchers with local amounts (7500, 30000, 40000 NGN)

let pair: ResellerPair;
let upstream: ServerProcess;
let reseller: ServerProcess;
let atUpstream: ResellerPair['atUpstream'];
let upstreamToken: string;
let resellerToken: string;

let serial = 10;
/** A Nigerian number of its own per top-up (the upstream refuses a number recharged just before), ending `suffix`. */
const ngNumber = (suffix: string) => ({
  countryCode: 'NG',
  number: `0803${String(serial++).padStart(2, '0')}${suffix}`,
});

const admin = (server: ServerProcess, method: string, path: string, body?: unknown) =>
  pair.admin(server, method, path, body);

const airgift = (...args: string[]) => pair.airgift(...args);

const headers = { accept: VENDOR_ACCEPT };

const topup = (body: Record<string, unknown>) =>
  reseller.http.post(
    '/topups/topups',
    { operatorId: MTN, amount: 10, ...body },
    { token: resellerToken, headers },
  );

const resellerTopup = async (id: number) =>
  (await reseller.http.get(`/topups/topups/reports/transactions/${id}`, { token: resellerToken, headers }))
    .body;

async function resellerTopupBy(customIdentifier: string) {
  const page = await reseller.http.get(
    `/topups/topups/reports/transactions?customIdentifier=${customIdentifier}`,
    { token: resellerToken, headers },
  );
  return page.body.content[0];
}

const resellerBalance = async () =>
  (await reseller.http.get('/topups/accounts/balance', { token: resellerToken, headers })).body.balance;

/** The upstream's top-ups carrying the customIdentifier the reseller derives for `id`. */
async function atUpstreamFor(id: number): Promise<any[]> {
  const a = await upstream.http.get(
    `/topups-sandbox/topups/reports/transactions?customIdentifier=ag-live-${id}`,
    { token: upstreamToken, headers },
  );
  assert.equal(a.status, 200, a.text);
  return a.body.content;
}

async function upstreamBalance(): Promise<number> {
  return (await upstream.http.get('/topups-sandbox/accounts/balance', { token: upstreamToken, headers })).body
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

/** The reseller's top-up and the upstream's one behind it: one, final alike, same reference and voucher. */
async function sameAtUpstream(mine: any) {
  const there = await atUpstreamFor(mine.transactionId);
  assert.equal(there.length, 1, `one upstream transaction for ${mine.transactionId}`);
  const [theirs] = there;
  assert.equal(theirs.status, mine.status);
  assert.equal(theirs.operatorTransactionId, mine.operatorTransactionId);
  assert.deepEqual(theirs.pinDetail, mine.pinDetail);
  assert.equal(theirs.deliveredAmount, mine.deliveredAmount);
  assert.equal(theirs.deliveredAmountCurrencyCode, mine.deliveredAmountCurrencyCode);
  assert.deepEqual(theirs.recipientPhone, mine.recipientPhone);
  return theirs;
}

before(async () => {
  if (!pg) return;
  // short sandbox processing at the upstream (the harness makes both workers fast)
  pair = await startResellerPair({
    product: 'topups',
    upstreamEnv: { TOPUP_SANDBOX_PROCESSING_SECONDS: '1' },
    resellerEnv: { UPSTREAM_TIMEOUT_SECONDS: '2' },
  });
  ({ upstream, reseller, atUpstream, upstreamToken } = pair);
  resellerToken = pair.liveToken;
  assert.deepEqual(pair.setOutput.balance, { balance: 1000, currencyCode: 'USD' });
});

after(async () => {
  await pair?.stop();
});

const skip = !pg && 'PostgreSQL not reachable';

test('a live top-up is bought once at the upstream: SUCCESSFUL with its reference, the local amount delivered', {
  skip,
}, async () => {
  const before = await upstreamBalance();
  const a = await topup({
    customIdentifier: 'ok-1',
    recipientPhone: ngNumber('12345'),
    senderPhone: { countryCode: 'US', number: '+12025550143' },
  });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'SUCCESSFUL');
  assert.equal(a.body.senderPhone, '12025550143');
  const theirs = await sameAtUpstream(a.body);
  assert.equal(theirs.senderPhone, '12025550143', 'the sender phone passed on');
  assert.ok((await upstreamBalance()) < before, 'the upstream debited the reseller');
  await auditsAreEmpty();
});

test("a PIN operator's voucher is the upstream's, field for field", { skip }, async () => {
  const a = await topup({
    operatorId: MTN_PIN,
    amount: 7500,
    useLocalAmount: true,
    recipientPhone: ngNumber('23456'),
  });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'SUCCESSFUL');
  assert.equal(a.body.deliveredAmount, 7500);
  assert.ok(a.body.pinDetail?.code, 'a voucher code');
  await sameAtUpstream(a.body);
  // the same voucher on the reseller's report
  assert.deepEqual((await resellerTopup(a.body.transactionId)).pinDetail, a.body.pinDetail);
  // a fixed sender amount (USD) whose NGN value is not one of the local vouchers goes as it is
  const usd = await topup({ operatorId: MTN_PIN, amount: 4.84, recipientPhone: ngNumber('23457') });
  assert.equal(usd.status, 200, usd.text);
  assert.equal(usd.body.status, 'SUCCESSFUL');
  const theirs = await sameAtUpstream(usd.body);
  assert.equal(theirs.requestedAmount, 4.84);
  await auditsAreEmpty();
});

test('99990 at the upstream: PROCESSING, polled until SUCCESSFUL', { skip }, async () => {
  const a = await topup({ customIdentifier: 'slow-ok', recipientPhone: ngNumber('99990') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.equal(a.body.operatorTransactionId, null);
  const done = await until('SUCCESSFUL', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await auditsAreEmpty();
});

test('99991 at the upstream: PROCESSING, then REFUNDED and the debit given back', { skip }, async () => {
  const balance = await resellerBalance();
  const a = await topup({ customIdentifier: 'slow-refund', recipientPhone: ngNumber('99991') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.ok((await resellerBalance()) < balance, 'debited meanwhile');
  const done = await until('REFUNDED', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'REFUNDED' && t;
  });
  await sameAtUpstream(done);
  assert.equal(await resellerBalance(), balance, 'refunded');
  await auditsAreEmpty();
});

test("99992 refused by the upstream's operator: 400 TOPUP_TRANSACTION_FAILED, REFUNDED in the reports", {
  skip,
}, async () => {
  const balance = await resellerBalance();
  const a = await topup({ customIdentifier: 'refused-1', recipientPhone: ngNumber('99992') });
  assert.equal(a.status, 400, a.text);
  assert.equal(a.body.errorCode, 'TOPUP_TRANSACTION_FAILED');
  const mine = await resellerTopupBy('refused-1');
  assert.equal(mine.status, 'REFUNDED');
  assert.match(a.text, new RegExp(String(mine.transactionId)), 'our transaction id in the answer');
  assert.equal(await resellerBalance(), balance, 'refunded at once');
  await sameAtUpstream(mine); // the upstream keeps its REFUNDED attempt too
  await auditsAreEmpty();
});

test('99993 at the upstream: its 503 passed on, refunded, nothing held there', { skip }, async () => {
  const balance = await resellerBalance();
  const a = await topup({ customIdentifier: 'unavailable-1', recipientPhone: ngNumber('99993') });
  assert.equal(a.status, 503, a.text);
  assert.equal(a.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  const mine = await resellerTopupBy('unavailable-1');
  assert.equal(mine.status, 'REFUNDED');
  assert.equal(await resellerBalance(), balance);
  assert.equal((await atUpstreamFor(mine.transactionId)).length, 0);
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
  const resellerBefore = await resellerBalance();

  const refused = await topup({ customIdentifier: 'broke-1', recipientPhone: ngNumber('34567') });
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  const t = await resellerTopupBy('broke-1');
  assert.equal(t.status, 'REFUNDED');
  assert.equal(await resellerBalance(), resellerBefore, 'nothing kept');
  assert.equal((await atUpstreamFor(t.transactionId)).length, 0, 'the upstream took nothing');
  const shown = JSON.parse((await airgift('upstream', 'show', '--json')).stdout).items.find(
    (u: any) => u.product === 'topups',
  );
  assert.equal(shown.health.insufficientBalance, true);
  assert.equal(shown.balance.balance, 1);
  await until('the warning in the log', async () =>
    /upstream topups: the upstream's balance/.test(reseller.output()),
  );

  await admin(upstream, 'POST', `/accounts/${atUpstream.accountId}/fund`, {
    environment: 'sandbox',
    amount: 500,
    reason: 'test: funded again',
  });
  const ok = await topup({ customIdentifier: 'broke-2', recipientPhone: ngNumber('34568') });
  assert.equal(ok.body.status, 'SUCCESSFUL', ok.text);
  const again = JSON.parse((await airgift('upstream', 'show', '--json')).stdout).items.find(
    (u: any) => u.product === 'topups',
  );
  assert.equal(again.health.insufficientBalance, false);
  await auditsAreEmpty();
});

test('the upstream killed mid-top-up (its answer held) and restarted: reconciled, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const pending = topup({ customIdentifier: 'killed-1', recipientPhone: ngNumber('45678') });
  const mine = await until('the reseller top-up', () => resellerTopupBy('killed-1'));
  await until('the upstream transaction', async () => (await atUpstreamFor(mine.transactionId)).length === 1);
  upstream.child.kill('SIGKILL');
  await upstream.exited;

  const answered = await pending;
  assert.equal(answered.status, 200, answered.text);
  assert.equal(answered.body.status, 'PROCESSING', 'outcome unknown: kept PROCESSING');

  upstream = await pair.restartUpstream();
  pair.proxy.resume();
  const done = await until('the reconciled top-up', async () => {
    const t = await resellerTopup(mine.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await auditsAreEmpty();
});

test('a call that times out before reaching the upstream: PROCESSING, then provably absent, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('both');
  const started = Date.now();
  const a = await topup({ customIdentifier: 'stalled-1', recipientPhone: ngNumber('56789') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.ok(Date.now() - started >= 1900, 'answered after UPSTREAM_TIMEOUT_SECONDS');
  pair.proxy.resume();
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 0, 'nothing reached the upstream');
  const done = await until('the top-up bought after reconciliation', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await auditsAreEmpty();
});

test('a timeout after the upstream bought (its answer held): reconciled from its report, not bought again', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const a = await topup({ customIdentifier: 'slow-answer-1', recipientPhone: ngNumber('67890') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  pair.proxy.resume();
  assert.equal((await atUpstreamFor(a.body.transactionId)).length, 1, 'the upstream bought it');
  const done = await until('the top-up reconciled', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await auditsAreEmpty();
  // every reseller top-up of this suite is at the upstream exactly once, or not at all when the
  // upstream refused it before recording anything (503s)
  const all = (
    await reseller.http.get('/topups/topups/reports/transactions?size=100', { token: resellerToken, headers })
  ).body.content;
  assert.ok(all.length >= 10);
  for (const t of all) {
    const there = await atUpstreamFor(t.transactionId);
    const neverTaken = ['unavailable-1', 'broke-1'].includes(t.customIdentifier);
    assert.equal(there.length, neverTaken ? 0 : 1, `transaction ${t.transactionId} (${t.customIdentifier})`);
  }
});

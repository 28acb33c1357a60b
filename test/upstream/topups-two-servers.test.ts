import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  placedWhileStalled,
  type ResellerPair,
  resellerPairForSuite,
  upstreamBalanceRunsOut,
} from '../harness/reseller-pair.ts';
import type { ServerProcess } from '../harness/server-process.ts';
import { until } from '../harness/until.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

// Issue 8: live top-ups bought from an upstream. Two real airgift processes, each on its own
// PostgreSQL database: the upstream (its sandbox base serves the reseller's account there, its test
// numbers force each outcome) and the reseller (live, its upstream set with the CLI), with a real TCP
// proxy between them that can hold the upstream's answers or everything (harness/reseller-pair.ts).
// Each case ends with both ledger audits empty and the upstream holding exactly one transaction per
// reseller top-up that reached it.
const MTN = 1001; // MTN Nigeria airtime: RANGE, local amounts in NGN
const MTN_PIN = 1004; // MTN Nigeria PIN: FIXED vouchers with local amounts (7500, 30000, 40000 NGN)

let pair: ResellerPair;
let reseller: ServerProcess;
let resellerToken: string;

let serial = 10;
/** A Nigerian number of its own per top-up (the upstream refuses a number recharged just before), ending `suffix`. */
const ngNumber = (suffix: string) => ({
  countryCode: 'NG',
  number: `0803${String(serial++).padStart(2, '0')}${suffix}`,
});

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

/** The reseller's top-up and the upstream's one behind it: one, final alike, same reference and voucher. */
async function sameAtUpstream(mine: any) {
  const there = await pair.atUpstreamFor(mine.transactionId);
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

const { skip } = await resellerPairForSuite(
  {
    product: 'topups',
    upstreamEnv: { TOPUP_SANDBOX_PROCESSING_SECONDS: '1' },
    resellerEnv: { UPSTREAM_TIMEOUT_SECONDS: '2' },
  },
  (p) => {
    // short sandbox processing at the upstream (the harness makes both workers fast)
    pair = p;
    ({ reseller } = pair);
    resellerToken = pair.liveToken;
    assert.deepEqual(pair.setOutput.balance, { balance: 1000, currencyCode: 'USD' });
  },
);

test('a live top-up is bought once at the upstream: SUCCESSFUL with its reference, the local amount delivered', {
  skip,
}, async () => {
  const before = await pair.upstreamBalance();
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
  assert.ok((await pair.upstreamBalance()) < before, 'the upstream debited the reseller');
  await pair.assertAudits();
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
  await pair.assertAudits();
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
  await pair.assertAudits();
});

test('99991 at the upstream: PROCESSING, then REFUNDED and the debit given back', { skip }, async () => {
  const balance = await pair.resellerBalance();
  const a = await topup({ customIdentifier: 'slow-refund', recipientPhone: ngNumber('99991') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  assert.ok((await pair.resellerBalance()) < balance, 'debited meanwhile');
  const done = await until('REFUNDED', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'REFUNDED' && t;
  });
  await sameAtUpstream(done);
  assert.equal(await pair.resellerBalance(), balance, 'refunded');
  await pair.assertAudits();
});

test("99992 refused by the upstream's operator: 400 TOPUP_TRANSACTION_FAILED, REFUNDED in the reports", {
  skip,
}, async () => {
  const balance = await pair.resellerBalance();
  const a = await topup({ customIdentifier: 'refused-1', recipientPhone: ngNumber('99992') });
  assert.equal(a.status, 400, a.text);
  assert.equal(a.body.errorCode, 'TOPUP_TRANSACTION_FAILED');
  const mine = await pair.resellerTransactionBy('refused-1');
  assert.equal(mine.status, 'REFUNDED');
  assert.match(a.text, new RegExp(String(mine.transactionId)), 'our transaction id in the answer');
  assert.equal(await pair.resellerBalance(), balance, 'refunded at once');
  await sameAtUpstream(mine); // the upstream keeps its REFUNDED attempt too
  await pair.assertAudits();
});

test('99993 at the upstream: its 503 passed on, refunded, nothing held there', { skip }, async () => {
  const balance = await pair.resellerBalance();
  const a = await topup({ customIdentifier: 'unavailable-1', recipientPhone: ngNumber('99993') });
  assert.equal(a.status, 503, a.text);
  assert.equal(a.body.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  const mine = await pair.resellerTransactionBy('unavailable-1');
  assert.equal(mine.status, 'REFUNDED');
  assert.equal(await pair.resellerBalance(), balance);
  assert.equal((await pair.atUpstreamFor(mine.transactionId)).length, 0);
  await pair.assertAudits();
});

test(
  "the upstream's balance runs out: refunded at once, 503, visible in upstream show and the log",
  {
    skip,
  },
  () =>
    upstreamBalanceRunsOut(pair, (customIdentifier) =>
      topup({ customIdentifier, recipientPhone: ngNumber('34567') }),
    ),
);

test('the upstream killed mid-top-up (its answer held) and restarted: reconciled, bought once', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const pending = topup({ customIdentifier: 'killed-1', recipientPhone: ngNumber('45678') });
  const mine = await until('the reseller top-up', () => pair.resellerTransactionBy('killed-1'));
  await pair.killUpstreamMidOrder(mine.transactionId, pending);
  const done = await until('the reconciled top-up', async () => {
    const t = await resellerTopup(mine.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await pair.assertAudits();
});

test('a call that times out before reaching the upstream: PROCESSING, then provably absent, bought once', {
  skip,
}, async () => {
  const a = await placedWhileStalled(pair, () =>
    topup({ customIdentifier: 'stalled-1', recipientPhone: ngNumber('56789') }),
  );
  pair.proxy.resume();
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 0, 'nothing reached the upstream');
  const done = await until('the top-up bought after reconciliation', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await pair.assertAudits();
});

test('a timeout after the upstream bought (its answer held): reconciled from its report, not bought again', {
  skip,
}, async () => {
  pair.proxy.stall('responses');
  const a = await topup({ customIdentifier: 'slow-answer-1', recipientPhone: ngNumber('67890') });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'PROCESSING');
  pair.proxy.resume();
  assert.equal((await pair.atUpstreamFor(a.body.transactionId)).length, 1, 'the upstream bought it');
  const done = await until('the top-up reconciled', async () => {
    const t = await resellerTopup(a.body.transactionId);
    return t.status === 'SUCCESSFUL' && t;
  });
  await sameAtUpstream(done);
  await pair.assertAudits();
  // every reseller top-up of this suite is at the upstream exactly once, or not at all when the
  // upstream refused it before recording anything (503s)
  const all = (
    await reseller.http.get('/topups/topups/reports/transactions?size=100', { token: resellerToken, headers })
  ).body.content;
  assert.ok(all.length >= 10);
  for (const t of all) {
    const there = await pair.atUpstreamFor(t.transactionId);
    const neverTaken = ['unavailable-1', 'broke-1'].includes(t.customIdentifier);
    assert.equal(there.length, neverTaken ? 0 : 1, `transaction ${t.transactionId} (${t.customIdentifier})`);
  }
});

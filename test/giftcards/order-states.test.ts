import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GiftcardStatus } from '../../src/db/schema.ts';
import { AppError } from '../../src/errors/error-codes.ts';
import { cardCodec } from '../../src/lib/card-codes.ts';
import { dec } from '../../src/lib/money.ts';
import { priceOrder } from '../../src/modules/giftcards/orders/order-pricing.ts';
import {
  canMove,
  FINAL_STATES,
  firstStep,
  pathTo,
  stateOf,
} from '../../src/modules/giftcards/orders/order-states.ts';

// decisions §6: PENDING -> PROCESSING -> SUCCESSFUL | FAILED | REFUNDED, FAILED -> REFUNDED; the
// one table in order-states.ts, checked pair by pair.
const STATES: GiftcardStatus[] = ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED'];
const ALLOWED = new Set([
  'PENDING>PROCESSING',
  'PROCESSING>SUCCESSFUL',
  'PROCESSING>FAILED',
  'PROCESSING>REFUNDED',
  'FAILED>REFUNDED',
]);

test('every pair of states: only the five transitions of decisions §6', () => {
  for (const from of STATES) {
    for (const to of STATES) {
      assert.equal(canMove(from, to), ALLOWED.has(`${from}>${to}`), `${from} -> ${to}`);
    }
  }
  assert.deepEqual(FINAL_STATES, ['SUCCESSFUL', 'REFUNDED']);
});

test('paths go through every intermediate state and never backwards', () => {
  assert.deepEqual(pathTo('PENDING', 'SUCCESSFUL'), ['PROCESSING', 'SUCCESSFUL']);
  assert.deepEqual(pathTo('PENDING', 'REFUNDED'), ['PROCESSING', 'REFUNDED']);
  assert.deepEqual(pathTo('FAILED', 'REFUNDED'), ['REFUNDED']);
  assert.deepEqual(pathTo('PROCESSING', 'PROCESSING'), []);
  assert.equal(pathTo('SUCCESSFUL', 'REFUNDED'), null);
  assert.equal(pathTo('REFUNDED', 'FAILED'), null);
  assert.equal(pathTo('FAILED', 'SUCCESSFUL'), null);
  assert.equal(pathTo('PROCESSING', 'PENDING'), null);
});

test('a REFUSED step (an upstream refusal) ends REFUNDED with its refund, and carries its error', async () => {
  const error = new AppError('INVALID_AMOUNT_FOR_OPERATOR');
  assert.equal(stateOf({ status: 'REFUSED', error }), 'REFUNDED');
  assert.equal(stateOf({ status: 'PROCESSING', nextCheckAt: new Date() }), 'PROCESSING');
  const codec = cardCodec(async () => Buffer.alloc(32, 7));
  const first = await firstStep({ codec }, 10001, { status: 'REFUSED', error });
  assert.equal(first.status, 'REFUNDED');
  assert.equal(first.refund, true);
  assert.equal(first.refusal, error);
  assert.equal((await firstStep({ codec }, 10002, { status: 'REFUNDED' })).refusal, null);
});

test('pricing rounds each part to the minor unit, so amount is exact (decisions §5)', () => {
  const usd = priceOrder({
    quantity: 3,
    senderUnitPrice: dec('17.50'),
    senderFee: dec('0.75'),
    senderFeePercentage: '1.25',
    discountPercentage: '8.00',
    smsFeePerCard: dec('0.10'),
    currencyCode: 'USD',
  });
  // fee 3 × (0.75 + 0.21875) = 2.90625 -> 2.91; discount 3 × 17.5 × 8% = 4.20; sms 0.30
  assert.deepEqual(
    [usd.fee, usd.discount, usd.smsFee, usd.totalFee, usd.amount].map((d) => d.toFixed()),
    ['2.91', '4.2', '0.3', '3.21', '51.51'],
  );
  const jpy = priceOrder({
    quantity: 1,
    senderUnitPrice: dec('3750'),
    senderFee: dec('113'),
    senderFeePercentage: '1.5',
    discountPercentage: '3.5',
    smsFeePerCard: null,
    currencyCode: 'JPY',
  });
  // fee 113 + 56.25 -> 169; discount 131.25 -> 131; amount 3750 + 169 - 131
  assert.deepEqual(
    [jpy.fee, jpy.discount, jpy.amount].map((d) => d.toFixed()),
    ['169', '131', '3788'],
  );
  const kwd = priceOrder({
    quantity: 2,
    senderUnitPrice: dec('7.675'),
    senderFee: dec('0.154'),
    senderFeePercentage: '0.5',
    discountPercentage: '2.25',
    smsFeePerCard: dec('0.031'),
    currencyCode: 'KWD',
  });
  // fee 2 × (0.154 + 0.038375) = 0.38475 -> 0.385; discount 0.3453750 -> 0.345; sms 0.062
  assert.deepEqual(
    [kwd.fee, kwd.discount, kwd.smsFee, kwd.amount].map((d) => d.toFixed()),
    ['0.385', '0.345', '0.062', '15.452'],
  );
});

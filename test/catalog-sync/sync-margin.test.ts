import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dec } from '../../src/lib/money.ts';
import { fxShortfallPercent, lowerCommission, lowerDiscount } from '../../src/modules/catalog-sync/index.ts';
import { priceOrder } from '../../src/modules/giftcards/orders/order-pricing.ts';

test('the margin lowers the discount; past it, the rest becomes a fee percentage', () => {
  assert.deepEqual(lowerDiscount({ discountPercentage: '5', senderFeePercentage: '0' }, dec('2')), {
    discountPercentage: '3',
    senderFeePercentage: '0',
  });
  assert.deepEqual(lowerDiscount({ discountPercentage: '1.5', senderFeePercentage: '0.5' }, dec('4')), {
    discountPercentage: '0',
    senderFeePercentage: '3',
  });
  assert.deepEqual(lowerDiscount({ discountPercentage: '2', senderFeePercentage: '1' }, dec('0')), {
    discountPercentage: '2',
    senderFeePercentage: '1',
  });
});

test('a top-up commission is lowered by the margin, never below 0', () => {
  assert.equal(lowerCommission('8', dec('3')), '5');
  assert.equal(lowerCommission('2', dec('3')), '0');
  assert.equal(lowerCommission('2.75', dec('0.25')), '2.5');
});

test('an FX shortfall is covered: our price of every face value is at least the upstream one', () => {
  const cent = dec('0.01');
  assert.equal(fxShortfallPercent([[dec('10'), dec('10')]], '0', '0', cent).toString(), '0');
  assert.equal(fxShortfallPercent([[dec('10'), dec('9')]], '0', '0', cent).toString(), '0');
  // 10.10 / 10 = 1% more, and two cents of rounding cushion on 10: 0.2% more
  assert.equal(fxShortfallPercent([[dec('10'), dec('10.10')]], '0', '0', cent).toString(), '1.2');
  // exhaustive over a grid: margin + shortfall never leaves a card below the upstream's price
  for (const [d, f] of [
    ['0', '0'],
    ['5', '0'],
    ['3.5', '1.25'],
    ['0', '2'],
  ] as const) {
    for (const margin of ['0', '0.5', '2', '7']) {
      for (const ours of ['1', '9.99', '25', '137.41']) {
        for (const ratio of ['1', '1.003', '1.05', '0.97']) {
          const theirs = dec(ours).times(ratio).toDecimalPlaces(2);
          const extra = dec(margin).plus(fxShortfallPercent([[dec(ours), theirs]], f, d, cent));
          const terms = lowerDiscount({ discountPercentage: d, senderFeePercentage: f }, extra);
          const price = (s: string, t: { discountPercentage: string; senderFeePercentage: string }) =>
            priceOrder({
              quantity: 1,
              senderUnitPrice: dec(s),
              senderFee: dec('0.5'),
              senderFeePercentage: t.senderFeePercentage,
              discountPercentage: t.discountPercentage,
              smsFeePerCard: null,
              currencyCode: 'USD',
            }).amount;
          const ourPrice = price(ours, terms);
          const theirPrice = price(theirs.toString(), { discountPercentage: d, senderFeePercentage: f });
          assert.ok(
            ourPrice.gte(theirPrice),
            `d=${d} f=${f} m=${margin} S=${ours} r=${ratio}: ${ourPrice} < ${theirPrice}`,
          );
        }
      }
    }
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOperatorCatalog } from '../../src/modules/topups/catalog/operator-catalog.ts';
import { upstreamAmountOf } from '../../src/modules/topups/fulfilment/upstream-provider.ts';

// The amount a live top-up sends its upstream (docs/decisions.md, Top-ups): the local amount whenever
// the operator takes it as such, else the account-currency amount as asked.
const catalog = loadOperatorCatalog();
const order = (requestedAmount: string, deliveredAmount: string) => ({ requestedAmount, deliveredAmount });

test('RANGE operator with local amounts: the delivered amount, as a local amount', () => {
  assert.deepEqual(upstreamAmountOf(order('10', '15500'), catalog.find(1001)), {
    amount: 15500,
    useLocalAmount: true,
  });
});

test('FIXED operator: local only when the delivered amount is one of its local fixed amounts', () => {
  const pin = catalog.find(1004); // local vouchers 7500, 30000, 40000 NGN
  assert.deepEqual(upstreamAmountOf(order('4.84', '7500.00'), pin), { amount: 7500, useLocalAmount: true });
  assert.deepEqual(upstreamAmountOf(order('4.84', '7502'), pin), { amount: 4.84, useLocalAmount: false });
});

test('an operator without local amounts (or unknown): the requested amount', () => {
  const data = catalog.find(1002); // MTN Nigeria Data: no local amounts
  assert.equal(data?.supportsLocalAmounts, false);
  assert.deepEqual(upstreamAmountOf(order('12.34', '19127'), data), { amount: 12.34, useLocalAmount: false });
  assert.deepEqual(upstreamAmountOf(order('12.34', '19127'), undefined), {
    amount: 12.34,
    useLocalAmount: false,
  });
});

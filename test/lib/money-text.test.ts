import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayMoney, exactMoneyText } from '../../src/lib/money.ts';

// Issue 28: the console showed "4.840000 USD"; pages show the currency's minor unit, exports the exact decimal.
test("pages show money rounded to the currency's minor unit, thousands grouped", () => {
  assert.equal(displayMoney('4.840000', 'USD'), '4.84 USD');
  assert.equal(displayMoney('1234567.005', 'USD'), '1,234,567.01 USD', 'half-up');
  assert.equal(displayMoney('500.000000', 'JPY'), '500 JPY');
  assert.equal(displayMoney('12345.5', 'JPY'), '12,346 JPY');
  assert.equal(displayMoney('1.25', 'KWD'), '1.250 KWD');
  assert.equal(displayMoney('-1234.5', 'EUR'), '-1,234.50 EUR');
});

test("exports keep the exact decimal, with at least the currency's decimals", () => {
  assert.equal(exactMoneyText('4.840000', 'USD'), '4.84');
  assert.equal(exactMoneyText('4.843210', 'USD'), '4.84321', 'finer than cents: nothing rounded');
  assert.equal(exactMoneyText('500.000000', 'JPY'), '500');
  assert.equal(exactMoneyText('10', 'USD'), '10.00');
  assert.equal(exactMoneyText('0.1', 'KWD'), '0.100');
});

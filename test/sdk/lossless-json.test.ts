import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWithExactNumbers, quoteNumbersOf } from '../../sdk/src/index.ts';

// Card codes are JSON numbers that may exceed 2^53: the SDK keeps their exact digits as strings.
const KEYS = ['cardNumber', 'pinCode'];

describe('lossless card code parsing', () => {
  test('a 20-digit card number and its PIN come back with every digit', () => {
    const raw = '[{"cardNumber":12345678901234567890,"pinCode":1234}]';
    assert.notEqual(String(JSON.parse(raw)[0].cardNumber), '12345678901234567890', 'JSON.parse rounds it');
    assert.deepEqual(parseWithExactNumbers(raw, KEYS), [
      { cardNumber: '12345678901234567890', pinCode: '1234' },
    ]);
  });

  test('several cards, whitespace, strings and other numbers', () => {
    const raw = `[
      { "cardNumber" : 98765432109876543210123 , "pinCode": "ab-12", "value": 12345678901234567890 },
      {"pinCode":9007199254740993,"cardNumber":"XK7Q-PLMN"}
    ]`;
    const cards = parseWithExactNumbers<Array<Record<string, unknown>>>(raw, KEYS);
    assert.equal(cards[0]!.cardNumber, '98765432109876543210123');
    assert.equal(cards[0]!.pinCode, 'ab-12');
    assert.equal(typeof cards[0]!.value, 'number', 'other keys are left to JSON.parse');
    assert.equal(cards[1]!.pinCode, '9007199254740993');
    assert.equal(cards[1]!.cardNumber, 'XK7Q-PLMN');
  });

  test('a key name inside a string value is not taken for a key', () => {
    const raw = '{"note":"\\"cardNumber\\":1 and \\\\","cardNumber":18446744073709551617}';
    assert.deepEqual(parseWithExactNumbers(raw, KEYS), {
      note: '"cardNumber":1 and \\',
      cardNumber: '18446744073709551617',
    });
  });

  test('negative, decimal and exponent forms are kept as written; null stays null', () => {
    assert.equal(
      quoteNumbersOf('{"pinCode":-1.50e+3,"cardNumber":null}', KEYS),
      '{"pinCode":"-1.50e+3","cardNumber":null}',
    );
  });

  test('text that is not JSON still fails to parse', () => {
    assert.throws(() => parseWithExactNumbers('{"cardNumber":12', KEYS), SyntaxError);
    assert.throws(() => parseWithExactNumbers('{"cardNumber":"12', KEYS), SyntaxError);
  });
});

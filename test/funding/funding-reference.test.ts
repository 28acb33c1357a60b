import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountOfReference, referenceOf } from '../../src/modules/funding/index.ts';

// The account's bank transfer reference (modules/funding/funding-reference.ts): AG-<id>-<check>,
// two check digits of ISO 7064 MOD 97-10, so a mistyped digit or two swapped ones are caught.
test('a reference names its account and reads back, in any case and with spaces around', () => {
  for (const id of [1, 2, 42, 999, 123_456, 9_007_199_254]) {
    const reference = referenceOf(id);
    assert.match(reference, /^AG-\d+-\d{2}$/);
    assert.equal(accountOfReference(reference), id);
    assert.equal(accountOfReference(` ${reference.toLowerCase()} `), id);
  }
  for (const bad of ['', 'AG-42', 'AG--69', 'XX-42-69', 'AG-42-6', 'AG-0-98', 'AG-42-69-1'])
    assert.equal(accountOfReference(bad), null, bad);
});

test('every mistyped digit and every swap of two neighbouring digits is refused', () => {
  let tried = 0;
  for (let id = 1; id <= 3000; id++) {
    const digits = referenceOf(id).slice(3).replace('-', '');
    const split = String(id).length;
    const as = (d: string) => `AG-${d.slice(0, split)}-${d.slice(split)}`;
    for (let i = 0; i < digits.length; i++) {
      for (let v = 0; v <= 9; v++) {
        if (String(v) === digits[i]) continue;
        const typo = digits.slice(0, i) + v + digits.slice(i + 1);
        if (typo[0] === '0') continue; // not how an account id is written
        assert.equal(accountOfReference(as(typo)), null, `${as(typo)} for ${referenceOf(id)}`);
        tried++;
      }
      if (i + 1 < digits.length && digits[i] !== digits[i + 1]) {
        const swapped = digits.slice(0, i) + digits[i + 1] + digits[i] + digits.slice(i + 2);
        if (swapped[0] !== '0') {
          assert.equal(accountOfReference(as(swapped)), null, `${as(swapped)} for ${referenceOf(id)}`);
          tried++;
        }
      }
    }
  }
  assert.ok(tried > 100_000, `${tried} mistakes tried`);
});

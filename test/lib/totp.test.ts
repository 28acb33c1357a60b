import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  base32Decode,
  base32Encode,
  matchingStep,
  otpauthUri,
  stepAt,
  totpCode,
} from '../../src/lib/totp.ts';

// RFC 6238 Appendix B (SHA-1 rows: the seed is the ASCII "12345678901234567890", 8 digits, T0 = 0,
// X = 30) and RFC 4226 Appendix D (HOTP, 6 digits, same seed).
const SEED = Buffer.from('12345678901234567890', 'ascii');

test('RFC 6238 test vectors (SHA-1)', () => {
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  for (const [seconds, code] of vectors) {
    assert.equal(totpCode(SEED, stepAt(seconds * 1000), 8), code, `T = ${seconds}`);
  }
});

test('RFC 4226 HOTP values, 6 digits', () => {
  const expected = [
    '755224',
    '287082',
    '359152',
    '969429',
    '338314',
    '254676',
    '287922',
    '162583',
    '399871',
    '520489',
  ];
  assert.deepEqual(
    expected.map((_, counter) => totpCode(SEED, counter)),
    expected,
  );
});

test('base32 round trip, and the RFC 4648 vectors', () => {
  for (const [plain, encoded] of [
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ]) {
    assert.equal(base32Encode(Buffer.from(plain)), encoded);
    assert.equal(base32Decode(encoded).toString(), plain);
  }
  assert.equal(base32Decode('mzxw 6ytb oi==').toString(), 'foobar', 'case, spaces and padding ignored');
  assert.throws(() => base32Decode('MZ1'));
});

test('a code is accepted one step either side, never twice, never older than the last one', () => {
  const now = 1_700_000_015_000;
  const step = stepAt(now);
  const code = (s: number) => totpCode(SEED, s);
  assert.equal(matchingStep(SEED, code(step), now, null), step);
  assert.equal(matchingStep(SEED, code(step - 1), now, null), step - 1);
  assert.equal(matchingStep(SEED, code(step + 1), now, null), step + 1);
  assert.equal(matchingStep(SEED, code(step - 2), now, null), null, 'too old');
  assert.equal(matchingStep(SEED, code(step + 2), now, null), null, 'too early');
  assert.equal(matchingStep(SEED, code(step), now, step), null, 'already used');
  assert.equal(matchingStep(SEED, code(step - 1), now, step), null, 'older than the last used');
  assert.equal(matchingStep(SEED, code(step + 1), now, step), step + 1);
  assert.equal(matchingStep(SEED, '12345', now, null), null, 'five digits');
  assert.equal(matchingStep(SEED, 'abcdef', now, null), null);
});

test('the otpauth URI carries the base32 secret and the parameters', () => {
  const uri = new URL(otpauthUri('airgift console', 'ops@example.com', SEED));
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(decodeURIComponent(uri.pathname), '/airgift console:ops@example.com');
  assert.equal(uri.searchParams.get('secret'), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  assert.equal(uri.searchParams.get('digits'), '6');
  assert.equal(uri.searchParams.get('period'), '30');
  assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
});

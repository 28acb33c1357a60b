import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDateTime, formatRfc2822, parseDateTime } from '../../src/lib/time-format.ts';

test('the wire form is UTC yyyy-MM-dd HH:mm:ss', () => {
  assert.equal(formatDateTime(new Date('2026-01-05T03:04:05Z')), '2026-01-05 03:04:05');
});

test('parses the wire form, a bare date, and the unpadded form Reloadly SDKs send', () => {
  assert.equal(parseDateTime('2026-01-05 03:04:05')?.toISOString(), '2026-01-05T03:04:05.000Z');
  assert.equal(parseDateTime('2026-01-05')?.toISOString(), '2026-01-05T00:00:00.000Z');
  assert.equal(parseDateTime('2026-1-5 3:4:5')?.toISOString(), '2026-01-05T03:04:05.000Z');
});

test('refuses malformed and impossible dates', () => {
  for (const bad of [
    '2026-02-30 00:00:00',
    '2026-13-01',
    '26-01-01',
    '2026-01-01 24:00:00',
    'yesterday',
    '2026-01-01 10',
  ]) {
    assert.equal(parseDateTime(bad), null, bad);
  }
});

test('promotion dates use the RFC 2822 form of the spec', () => {
  assert.equal(formatRfc2822(new Date('2018-06-25T06:00:00Z')), 'Mon, 25 Jun 2018 06:00:00 +0000');
});

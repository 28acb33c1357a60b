import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newRequestId } from '../../src/lib/ids.ts';

// Request ids (src/lib/ids.ts): `req_`, the millisecond in base 36, the process's tag (6 hex digits),
// and a counter of 6 hex digits. The start is kept from one id to the next within a millisecond.

const SHAPE = /^req_([0-9a-z]+)([0-9a-f]{6})([0-9a-f]{6})$/;

test('a request id names its millisecond, its process and its place in the count', () => {
  const at = Date.UTC(2026, 10, 28, 5, 0, 0, 123);
  const ids = [newRequestId(at), newRequestId(at), newRequestId(at + 1), newRequestId()];
  const parts = ids.map((id) => SHAPE.exec(id));
  assert.ok(parts.every(Boolean), ids.join(' '));
  const [first, second, third, now] = parts as RegExpExecArray[];
  assert.equal(Number.parseInt(first[1], 36), at);
  assert.equal(Number.parseInt(second[1], 36), at, 'the same millisecond, the same start');
  assert.equal(Number.parseInt(third[1], 36), at + 1, 'the next millisecond, a new start');
  assert.ok(Math.abs(Number.parseInt(now[1], 36) - Date.now()) < 60_000, 'the clock, when no time is given');
  assert.equal(new Set(parts.map((p) => p?.[2])).size, 1, 'one tag per process');
  const counts = parts.map((p) => Number.parseInt(p?.[3] ?? '', 16));
  for (let i = 1; i < counts.length; i++) assert.equal(counts[i], (counts[i - 1] + 1) % 0x1000000);
});

test('the count wraps after 16,777,215 and stays six digits', () => {
  let last = '';
  for (let i = 0; i < 0x1000000 && !last.endsWith('ffffff'); i++) last = newRequestId(0);
  assert.match(last, /ffffff$/);
  assert.match(newRequestId(0), /^req_0[0-9a-f]{6}000000$/);
  assert.match(newRequestId(0), /^req_0[0-9a-f]{6}000001$/);
});

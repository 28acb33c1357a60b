import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiRequestEntry } from '../../src/http/api-request-log.ts';
import { createRequestLogBuffer } from '../../src/modules/request-log/request-log-buffer.ts';

/**
 * The request log's buffer (modules/request-log/request-log-buffer.ts): what the order path pays is
 * an array push. Batches of at most `batchRows` rows (2,000 by default; 500 here), each one write,
 * 200 ms after the first entry or as soon as a batch's worth wait; while writes are slow or failing,
 * entries beyond the bound are dropped and counted, never waited for.
 */
const entry = (i: number): ApiRequestEntry => ({
  at: i,
  accountId: 1,
  environment: 'sandbox',
  product: 'giftcards',
  clientId: 'c',
  method: 'GET',
  path: `/p/${i}`,
  status: 200,
  latencyMs: 1,
  requestId: `r${i}`,
});

/** A buffer whose writes are recorded (each batch's size), each taking `writeMs`. */
function recordingBuffer(writeMs = 0) {
  const writes: number[] = [];
  const buffer = createRequestLogBuffer({
    write: async (entries) => {
      writes.push(entries.length);
      if (writeMs > 0) await sleep(writeMs);
    },
    batchRows: 500,
  });
  return { writes, buffer };
}

test('a batch waits up to 200 ms for company; 500 waiting go at once, one write per 500', async () => {
  const { writes, buffer } = recordingBuffer();
  buffer.add(entry(0));
  await sleep(50);
  assert.deepEqual(writes, [], 'not written by the request, nor at once');
  await sleep(250);
  assert.deepEqual(writes, [1], 'written by the timer');
  for (let i = 0; i < 1200; i++) buffer.add(entry(i));
  await sleep(20);
  assert.deepEqual(writes, [1, 500, 500], 'full batches at once');
  assert.equal(buffer.stats().buffered, 200);
  await sleep(250);
  assert.deepEqual(writes, [1, 500, 500, 200], 'the rest at its deadline');
  assert.deepEqual(buffer.stats(), { written: 1201, dropped: 0, buffered: 0 });
  await buffer.close();
});

test('entries that come during a write wait for their own deadline, not for the write to end', async () => {
  const { writes, buffer } = recordingBuffer(40);
  buffer.add(entry(0));
  await sleep(210); // the timer has started the write of the first entry, which takes 40 ms
  assert.deepEqual(writes, [1]);
  const firstCame = performance.now();
  for (let i = 1; i <= 10; i++) buffer.add(entry(i));
  await sleep(100); // the write ended ~60 ms ago
  assert.deepEqual(writes, [1], 'not a batch of what came during one write');
  await sleep(150);
  assert.deepEqual(
    writes,
    [1, 10],
    `written ${Math.round(performance.now() - firstCame)} ms after the first came`,
  );
  await buffer.close();
});

test('flush() writes everything waiting at once, before any deadline', async () => {
  const { writes, buffer } = recordingBuffer();
  for (let i = 0; i < 700; i++) buffer.add(entry(i));
  await buffer.flush();
  assert.deepEqual(writes, [500, 200]);
  assert.equal(buffer.stats().buffered, 0);
  await buffer.close();
});

test('while writes hang, adding never waits: past the bound entries are dropped and counted', async () => {
  let release = () => {};
  const hung = new Promise<void>((resolve) => {
    release = resolve;
  });
  const buffer = createRequestLogBuffer({ write: () => hung, maxBuffered: 1000, batchRows: 500 });
  for (let i = 0; i < 500; i++) buffer.add(entry(i));
  await sleep(10); // a full batch went into the write, which hangs
  const started = performance.now();
  for (let i = 0; i < 2500; i++) buffer.add(entry(i));
  const spent = performance.now() - started;
  assert.ok(spent < 50, `2500 adds took ${spent} ms`);
  const stats = buffer.stats();
  // 1000 wait behind the hanging write; the other 1500 were dropped
  assert.equal(stats.buffered, 1000);
  assert.equal(stats.dropped, 1500);
  release();
  await buffer.flush();
  assert.deepEqual(buffer.stats(), { written: 1500, dropped: 1500, buffered: 0 });
  await buffer.close();
});

test('a failed write drops its batch (counted, told) and the next ones go on', async () => {
  let fail = true;
  const told: number[] = [];
  const written: number[] = [];
  const buffer = createRequestLogBuffer({
    write: async (entries) => {
      if (fail) throw new Error('database away');
      written.push(entries.length);
    },
    onError: (_error, entries) => told.push(entries),
  });
  for (let i = 0; i < 10; i++) buffer.add(entry(i));
  await buffer.flush();
  assert.deepEqual(told, [10]);
  fail = false;
  for (let i = 0; i < 5; i++) buffer.add(entry(i));
  await buffer.close();
  assert.deepEqual(written, [5], 'close writes what waits');
  assert.deepEqual(buffer.stats(), { written: 5, dropped: 10, buffered: 0 });
  buffer.add(entry(99));
  assert.equal(buffer.stats().dropped, 11, 'nothing is taken after close');
});

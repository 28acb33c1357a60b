import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import type { ApiRequestEntry } from '../../src/http/api-request-log.ts';
import { createKeptLines } from '../../src/modules/request-log/request-log-kept-lines.ts';
import {
  readOf,
  requestLogRepository,
  type Segment,
  segmentsOf,
} from '../../src/modules/request-log/request-log-repository.ts';
import { createRequestLog, rowOf } from '../../src/modules/request-log/request-log-service.ts';
import { createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from '../harness/templates.ts';

/**
 * The reads' lines kept outside V8's heap until their batch (modules/request-log/request-log-kept-lines.ts):
 * what a batch cuts from the bytes is what `segmentsOf` cuts from the same requests kept as strings,
 * whatever the lines' text and however the Buffer grew and was reused; and through the log, reads,
 * orders and failures interleaved over several batches are all listed back, each once, as they came.
 */
const T0 = Date.UTC(2026, 10, 28, 8);

function entry(i: number, over: Partial<ApiRequestEntry> = {}): ApiRequestEntry {
  const paths = ['/giftcards/products/1840', '/a"b\\c', '/x,y]z[', '/été/日本/😀', '/q?token=abc&page=2', ''];
  return {
    // mostly in order, some a moment back; the clients' minutes run over now and then
    at: T0 + i * 97 - (i % 7 === 0 ? 40 : 0) + (i % 5) / 4,
    accountId: 1 + (i % 3 === 0 ? 1 : 0),
    environment: i % 4 === 0 ? 'live' : 'sandbox',
    product: i % 6 === 0 ? 'topups' : 'giftcards',
    clientId: i % 5 === 0 ? 'client-b' : `client-a,"${i % 2}"`,
    method: 'GET',
    path: paths[i % paths.length],
    status: 200,
    latencyMs: (i % 90) / 7,
    requestId: `req_${i}`,
    ...over,
  };
}

/** A segment as the INSERT sends it: its key, times, count, its lines' JSON array, and what they created. */
const sent = (s: Segment) => ({
  ...s,
  bytes: undefined,
  lines: [s.bytes ? s.bytes.toString('utf8') : `[${s.lines.join(',')}]`],
});

test('a batch cuts from the bytes what segmentsOf cuts from the same lines kept as strings', () => {
  // 64 bytes to start: the Buffer grows, and the bytes of taken lines are reused, many times over
  const kept = createKeptLines(64);
  const entries = Array.from({ length: 3000 }, (_, i) => entry(i));
  let next = 0;
  for (const take of [1, 499, 2000, 500]) {
    // lines keep coming between batches: some before a batch, the rest after it
    while (kept.size < take + 37 && next + kept.size < entries.length) kept.add(entries[next + kept.size]);
    const expected = segmentsOf(entries.slice(next, next + take).map((e) => readOf(rowOf(e))));
    const got = kept.take(take);
    assert.deepEqual(got.map(sent), expected.map(sent), `the batch of ${take} after ${next}`);
    assert.equal(
      got.reduce((n, s) => n + s.count, 0),
      take,
    );
    next += take;
  }
  assert.equal(kept.size, 0);
  assert.deepEqual(kept.take(10), [], 'nothing waits');
  // masked as rowOf masks: the token in the query does not reach the bytes
  kept.add(entry(4));
  assert.match(String(kept.take(1)[0].bytes), /token=\[redacted\]/);
});

let db: Db;
before(async () => {
  db = fromPGlite(await loadPgliteTemplate());
});
after(() => db?.close());

/** Reads, orders and failures interleaved over several batches: each listed once, as it came, its creator found. */
async function throughTheLog(on: Db) {
  const repository = requestLogRepository(on.kysely);
  const clock = { now: () => new Date(T0 + 3_600_000) };
  const log = createRequestLog({ repository, clock, days: 30 });
  const entries = Array.from({ length: 4500 }, (_, i) =>
    entry(i, {
      accountId: 7,
      environment: 'sandbox',
      ...(i % 17 === 0
        ? { status: 404, requestBody: { x: i }, responseBody: '{"errorCode":"NOT_FOUND"}' }
        : {}),
      ...(i % 23 === 0 ? { method: 'POST', path: '/giftcards/orders', transactionId: 10_000 + i } : {}),
    }),
  );
  for (const e of entries) log.sink.add(e);
  await log.flush();
  assert.deepEqual(log.stats(), { written: 4500, dropped: 0, buffered: 0 });
  const rows = await repository.list({ accountId: 7 }, { limit: 5000, offset: 0 });
  assert.equal(rows.length, entries.length);
  const byId = new Map(rows.map((r) => [r.request_id, r]));
  assert.equal(byId.size, entries.length, 'each line once');
  for (const e of entries) {
    const r = byId.get(e.requestId);
    assert.ok(r, e.requestId);
    const row = rowOf(e);
    assert.ok(Math.abs(r.at.getTime() - e.at) < 1, `${e.requestId}: at`);
    assert.deepEqual(
      [r.client_id, r.product, r.method, r.path, r.status],
      [row.client_id, row.product, row.method, row.path, row.status],
      e.requestId,
    );
  }
  for (const e of entries.filter((x) => x.transactionId !== undefined && x.status < 400)) {
    const creator = await repository.creatorOf(
      7,
      'sandbox',
      e.product,
      e.transactionId as number,
      new Date(e.at),
    );
    assert.equal(creator, e.requestId, `the creator of ${e.transactionId}`);
  }
}

test('through the log on the embedded database: each line listed once, as it came', () => throughTheLog(db));

test('through the log on PostgreSQL: each line listed once, as it came', async (t) => {
  if (!(await postgresAvailable())) return t.skip('PostgreSQL not reachable');
  const database = await createPostgresDatabase();
  const pgDb = await openDatabase({ url: database.url });
  try {
    await throughTheLog(pgDb);
  } finally {
    await pgDb.close();
    await database.drop();
  }
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import type { ApiRequestEntry } from '../../src/http/api-request-log.ts';
import { createKeptLines, encodePlainLine } from '../../src/modules/request-log/request-log-kept-lines.ts';
import {
  lineText,
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
  const paths = [
    '/giftcards/products/1840',
    '/a"b\\c',
    '/x,y]z[',
    '/été/日本/😀',
    '/q?token=abc&page=2',
    '',
    `/${'日本語'.repeat(200)}`,
  ];
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
    while (kept.size < take + 37 && next + kept.size < entries.length)
      kept.add(rowOf(entries[next + kept.size]));
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
  kept.add(rowOf(entry(4)));
  assert.match(String(kept.take(1)[0].bytes), /token=\[redacted\]/);
});

test('a plain line is written byte for byte as lineText makes it; any other is left to lineText', () => {
  const b = Buffer.alloc(4096);
  const same = (e: ApiRequestEntry) => {
    const r = rowOf(e);
    const n = encodePlainLine(b, 7, r);
    const text = lineText(r.at, r.method, r.path, r.status, r.latency_ms, r.request_id);
    assert.ok(n > 0, `plain: ${text}`);
    assert.equal(b.toString('utf8', 7, 7 + n), text);
  };
  // every latency in hundredths up to 2,000 ms, then spread up to the largest the log could see, and
  // times from 0 to far ahead: the integers and decimals as JSON writes them
  for (let h = 0; h <= 200_000; h++) same(entry(h, { latencyMs: h / 100, path: '/p' }));
  for (let i = 0; i < 20_000; i++) {
    const latencyMs = Math.random() * 10 ** (1 + (i % 12));
    const at = Math.random() * 2 ** 52 * (i % 2) + (i % 10);
    same(entry(i, { at, latencyMs, status: 100 + (i % 500), path: `/giftcards/products/${i}?page=2` }));
  }
  same(entry(0, { at: 0, latencyMs: 0, status: 0 }));
  same(entry(0, { latencyMs: -0 }));
  // text JSON writes otherwise (escapes, UTF-8), and DEL, which JSON writes as it is: left to lineText
  for (const odd of [
    { path: '/a"b' },
    { path: '/a\\b' },
    { path: '/été' },
    { requestId: 'r\u0001' },
    { method: 'G\x7f' },
  ])
    assert.equal(encodePlainLine(b, 0, rowOf(entry(0, odd))), -1, JSON.stringify(odd));
  assert.equal(encodePlainLine(b, 0, { ...rowOf(entry(0)), latency_ms: 0.125 }), -1);
  // the largest latency written plain, and one past 2^46 ms, which JavaScript writes shorter than
  // its two decimals (70368744177664.1): left to lineText
  same(entry(0, { latencyMs: (1e15 - 1) / 100 }));
  assert.equal(encodePlainLine(b, 0, { ...rowOf(entry(0)), latency_ms: 2 ** 46 + 0.09375 }), -1);
  assert.equal(encodePlainLine(b, 0, { ...rowOf(entry(0)), at: 1.5 }), -1);
  assert.ok(encodePlainLine(b, 0, rowOf(entry(0))) > 0, 'the same line, plain');
});

test('clients by the thousand: the keys of lines taken are forgotten, and a line never names the wrong one', () => {
  const kept = createKeptLines();
  const expect = (entries: ApiRequestEntry[]) => {
    for (const e of entries) kept.add(rowOf(e));
    const want = segmentsOf(entries.map((e) => readOf(rowOf(e))));
    assert.deepEqual(kept.take(entries.length).map(sent), want.map(sent));
  };
  // 1,500 clients' lines taken: past KEYS_KEPT, with nothing waiting, the keys go
  expect(Array.from({ length: 1500 }, (_, i) => entry(i, { clientId: `client-${i}` })));
  // then 1,200 clients, some seen before: a batch takes 100 of their lines, and while the others wait
  // (more than KEYS_KEPT keys known) nothing is forgotten
  const later = Array.from({ length: 1200 }, (_, i) => entry(i, { clientId: `client-${(i * 7) % 1700}` }));
  for (const e of later) kept.add(rowOf(e));
  const cut = (from: number, to: number) =>
    segmentsOf(later.slice(from, to).map((e) => readOf(rowOf(e)))).map(sent);
  assert.deepEqual(kept.take(100).map(sent), cut(0, 100));
  assert.deepEqual(kept.take(1100).map(sent), cut(100, 1200));
});

test('a line that cannot be made is neither kept nor given a place; one not admitted is not kept', () => {
  const kept = createKeptLines();
  // rowOf cannot make it, nor can the kept lines from a row that slipped past it
  assert.throws(() => rowOf(entry(1, { path: null as unknown as string })));
  assert.throws(() =>
    kept.add({ ...rowOf(entry(0)), path: null as unknown as string }, () => assert.fail('admitted')),
  );
  assert.throws(() =>
    kept.add({ ...rowOf(entry(0)), latency_ms: Symbol() as unknown as number }, () =>
      assert.fail('admitted'),
    ),
  );
  kept.add(rowOf(entry(2)), () => false);
  assert.equal(kept.size, 0);
  kept.add(rowOf(entry(3)));
  assert.deepEqual(kept.take(5).map(sent), segmentsOf([readOf(rowOf(entry(3)))]).map(sent));
});

let db: Db;
before(async () => {
  db = fromPGlite(await loadPgliteTemplate());
});
after(() => db?.close());

/** Reads, orders and failures interleaved over several batches: each listed once, as it came, its creator found. */
async function throughTheLog(on: Db) {
  const real = requestLogRepository(on.kysely);
  // the real repository, each batch's size noted: a batch of n places takes n lines, no more
  const batches: number[] = [];
  const repository: typeof real = {
    ...real,
    insert: (rows, cut = []) => {
      batches.push(rows.length + cut.reduce((n, s) => n + s.count, 0));
      return real.insert(rows, cut);
    },
  };
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
  assert.deepEqual(batches, [2000, 2000, 500]);
  const { rows: stored } = await sql<{ lines: string }>`SELECT sum(lines) AS lines FROM api_request_reads
    WHERE account_id = 7`.execute(on.kysely);
  assert.equal(
    Number(stored[0].lines),
    entries.filter((e) => e.status < 400).length,
    'each segment counts its lines',
  );
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

test('a batch whose write fails drops its own lines, and the next batch writes its own', async () => {
  const real = requestLogRepository(db.kysely);
  let failures = 1;
  const repository: typeof real = {
    ...real,
    insert: async (rows, cut) => {
      if (failures-- > 0) throw new Error('the database went away');
      return real.insert(rows, cut);
    },
  };
  const log = createRequestLog({ repository, clock: { now: () => new Date(T0) }, days: 30 });
  const told: number[] = [];
  log.onWriteError((_, n) => told.push(n));
  // the first batch's 2,000 entries fail, failures among them written before its lines are taken
  const entries = Array.from({ length: 2600 }, (_, i) =>
    entry(i, { accountId: 8, ...(i % 13 === 0 ? { status: 500, requestBody: { i } } : {}) }),
  );
  for (const e of entries) log.sink.add(e);
  await log.flush();
  assert.deepEqual(told, [2000]);
  assert.deepEqual(log.stats(), { written: 600, dropped: 2000, buffered: 0 });
  const rows = await real.list({ accountId: 8 }, { limit: 5000, offset: 0 });
  assert.deepEqual(
    rows.map((r) => r.request_id).sort(),
    entries
      .slice(2000)
      .map((e) => e.requestId)
      .sort(),
  );
});

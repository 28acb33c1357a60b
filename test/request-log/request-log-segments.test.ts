import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type Db, fromPGlite, openDatabase } from '../../src/db/database.ts';
import {
  type RequestLogQuery,
  type RequestLogRow,
  readOf,
  requestLogRepository,
  SEGMENT_SPAN_MS,
  segmentsOf,
} from '../../src/modules/request-log/request-log-repository.ts';
import { createPostgresDatabase, loadPgliteTemplate, postgresAvailable } from '../harness/templates.ts';

/**
 * The request log's two stores (migrations 0030 and 0035, modules/request-log/request-log-repository.ts):
 * a successful request is a line of a segment (one row per client and batch, a minute at most), with
 * the transaction an order created beside it; a failure keeps a row of its own; the list reads both as one table,
 * newest first, in a window of time that grows until it holds the page. Checked against the same
 * lines sorted here, for every filter and page, over six hours whose lines crowd and thin out.
 */
let db: Db;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 6);
const written: RequestLogRow[] = [];

function row(i: number, at: number, over: Partial<RequestLogRow> = {}): RequestLogRow {
  return {
    at,
    account_id: 1,
    environment: i % 5 === 0 ? 'live' : 'sandbox',
    product: i % 3 === 0 ? 'topups' : 'giftcards',
    client_id: i % 4 === 0 ? 'client-b' : 'client-a',
    method: 'GET',
    path: `/giftcards-sandbox/products/${i % 7}`,
    status: 200,
    latency_ms: (i % 90) / 10,
    request_id: `req-${i}`,
    request_body: null,
    response_body: null,
    transaction_id: null,
    ...over,
  };
}

before(async () => {
  db = fromPGlite(await loadPgliteTemplate());
  const repository = requestLogRepository(db.kysely);
  // Six hours: a crowded first hour (a line every 2 s), then one every 90 s; every 17th line a 404,
  // every 23rd an order; some lines share their millisecond; another account's lines beside them.
  let i = 0;
  const batches: RequestLogRow[][] = [];
  for (let at = T0; at < T0 + 6 * HOUR; at += at < T0 + HOUR ? 2000 : 90_000) {
    const batch: RequestLogRow[] = [];
    for (let k = 0; k < (i % 11 === 0 ? 3 : 1); k++, i++) {
      const over: Partial<RequestLogRow> =
        i % 17 === 0
          ? { status: 404, request_body: '{"x":1}', response_body: '{"errorCode":"NOT_FOUND"}' }
          : i % 23 === 0
            ? { method: 'POST', path: '/giftcards-sandbox/orders', transaction_id: i }
            : {};
      batch.push(row(i, at, over));
    }
    batch.push(row(i++, at, { account_id: 2 }));
    batches.push(batch);
  }
  // written in batches of 40 of those moments, as the buffer does
  for (let b = 0; b < batches.length; b += 40) {
    const rows = batches.slice(b, b + 40).flat();
    await repository.insert(rows);
    written.push(...rows);
  }
});
after(() => db?.close());

test('a successful read or order is a line of a segment; a failure keeps a row of its own', async () => {
  const count = async (table: 'api_request_log' | 'api_request_reads') =>
    Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db.kysely)).rows[0].n,
    );
  const own = written.filter((r) => r.status >= 400).length;
  assert.equal(await count('api_request_log'), own);
  const { rows } = await sql<{ lines: number; span: number }>`
    SELECT lines, extract(epoch FROM last_at - first_at) * 1000 AS span FROM api_request_reads`.execute(
    db.kysely,
  );
  assert.equal(
    rows.reduce((n, r) => n + r.lines, 0),
    written.length - own,
  );
  assert.ok(rows.length < (written.length - own) / 2, `${rows.length} segments: lines share them`);
  assert.ok(
    rows.every((r) => Number(r.span) <= SEGMENT_SPAN_MS),
    'a segment spans a minute at most',
  );
});

test("an order's creator is found by its transaction and the time it was created, and only so", async () => {
  const repository = requestLogRepository(db.kysely);
  const orders = written.filter((r) => r.transaction_id !== null);
  assert.ok(orders.length > 20, `${orders.length} orders`);
  for (const o of orders) {
    const id = o.transaction_id as number;
    const creator = (
      createdAt: number,
      over: { environment?: string; product?: string; account?: number } = {},
    ) =>
      repository.creatorOf(
        over.account ?? o.account_id,
        over.environment ?? o.environment,
        over.product ?? o.product,
        id,
        new Date(createdAt),
      );
    // created a moment after the request came in (its line's time), or in the same second
    assert.equal(await creator(o.at + 250), o.request_id, `order ${id}`);
    assert.equal(await creator(o.at + 14 * 60_000), o.request_id, `order ${id}: a live order's wait`);
    assert.equal(await creator(o.at - 4 * 60_000), o.request_id, `order ${id}: a clock that stepped`);
    assert.equal(await creator(o.at + 16 * 60_000), null, `order ${id}: out of the window`);
    assert.equal(await creator(o.at - 6 * 60_000), null, `order ${id}: out of the window, after`);
    assert.equal(await creator(o.at + 250, { account: 2 }), null, `order ${id}: another account`);
    assert.equal(await creator(o.at + 250, { product: 'auth' }), null, `order ${id}: another product`);
    const other = o.environment === 'live' ? 'sandbox' : 'live';
    assert.equal(await creator(o.at + 250, { environment: other }), null, `order ${id}: another environment`);
  }
  const reads = written.find((r) => r.transaction_id === null && r.status < 400) as RequestLogRow;
  assert.equal(
    await repository.creatorOf(1, reads.environment, reads.product, 999_999, new Date(reads.at)),
    null,
  );
});

test("a row of api_request_log written before migration 0035 still names its order's creator", async () => {
  const repository = requestLogRepository(db.kysely);
  const at = T0 + 7 * HOUR;
  await sql`INSERT INTO api_request_log (at, account_id, environment, product, client_id, method, path, status,
                                         latency_ms, request_id, transaction_id)
            VALUES (${new Date(at)}, 3, 'sandbox', 'topups', 'client-c', 'POST', '/topups-sandbox/topups', 200, 1,
                    'req-before-0035', 77)`.execute(db.kysely);
  assert.equal(await repository.creatorOf(3, 'sandbox', 'topups', 77, new Date(at + 100)), 'req-before-0035');
  await sql`DELETE FROM api_request_log WHERE account_id = 3`.execute(db.kysely);
});

test("on PostgreSQL too, an order's line keeps its transaction and creator (the arrays as its driver sends them)", async (t) => {
  if (!(await postgresAvailable())) return t.skip('PostgreSQL not reachable');
  const database = await createPostgresDatabase();
  const pgDb = await openDatabase({ url: database.url });
  try {
    const repository = requestLogRepository(pgDb.kysely);
    const at = T0;
    const order = (i: number) =>
      row(i, at + i, {
        method: 'POST',
        path: '/topups-sandbox/topups',
        product: 'topups',
        transaction_id: 500 + i,
      });
    await repository.insert([row(0, at), order(1), row(2, at + 2), order(3)]);
    assert.equal(await repository.creatorOf(1, 'sandbox', 'topups', 501, new Date(at + 100)), 'req-1');
    assert.equal(await repository.creatorOf(1, 'sandbox', 'topups', 503, new Date(at + 100)), 'req-3');
    assert.equal(await repository.creatorOf(1, 'sandbox', 'topups', 502, new Date(at + 100)), null);
  } finally {
    await pgDb.close();
    await database.drop();
  }
});

test('segmentsOf: one per client, a new one after a minute', () => {
  const rows = [row(1, 0), row(2, 30_000), row(3, 70_000), row(4, 10_000)];
  const segments = segmentsOf(rows);
  const a = segments.filter((s) => s.client_id === 'client-a');
  assert.deepEqual(
    a.map((s) => s.lines.map((l) => JSON.parse(l)[5])),
    [['req-1', 'req-2'], ['req-3']],
    'split where the span would pass a minute',
  );
  assert.deepEqual(
    segments.find((s) => s.client_id === 'client-b')?.lines.map((l) => JSON.parse(l)[5]),
    ['req-4'],
  );
  // one client (1, 2, 7 and 11 share account, environment and product): a line that comes late, more
  // than a minute before the segment's last, starts another segment too
  const late = segmentsOf([row(1, 100_000), row(2, 150_000), row(7, 85_000), row(11, 90_000)]);
  assert.deepEqual(
    late.map((s) => [s.lines.map((l) => JSON.parse(l)[5]), s.first_at, s.last_at, s.count]),
    [
      [['req-1', 'req-2'], 100_000, 150_000, 2],
      [['req-7', 'req-11'], 85_000, 90_000, 2],
    ],
  );
});

test('readOf and segmentsOf: a line comes back as it was kept, whatever its text', () => {
  // The kept string is its parts joined by NUL (which storableText keeps out of every part): paths
  // with quotes, backslashes, commas, non-Latin and astral characters, and a created transaction,
  // come back from its segment unchanged.
  const paths = ['/a"b\\c', '/x,y]z[', '/été/日本/😀', '/q?size=10&page=2', ''];
  const rows = paths.map((path, i) =>
    row(i, T0 + i * 0.25, {
      path,
      client_id: `c,${i % 2}"`,
      latency_ms: i / 3,
      transaction_id: i % 2 ? 900 + i : null,
    }),
  );
  const segments = segmentsOf(rows.map(readOf));
  for (const r of rows) {
    const segment = segments.find(
      (s) => s.client_id === r.client_id && s.environment === r.environment && s.product === r.product,
    );
    assert.ok(segment, r.client_id);
    assert.equal(segment.account_id, r.account_id);
    const line = segment.lines.map((l) => JSON.parse(l)).find((l) => l[5] === r.request_id);
    assert.deepEqual(line, [r.at, r.method, r.path, r.status, r.latency_ms, r.request_id]);
    const created = segment.createdTransactions.indexOf(r.transaction_id ?? -1);
    assert.equal(
      created >= 0 ? segment.creatingRequests[created] : null,
      r.transaction_id ? r.request_id : null,
    );
  }
});

/** The lines the list should show, sorted here. */
function expected(q: RequestLogQuery) {
  const status = (s: number) =>
    !q.status ||
    (q.status === 'failed'
      ? s >= 400
      : /xx$/.test(q.status)
        ? Math.floor(s / 100) === Number(q.status[0])
        : s === Number(q.status));
  return written
    .filter(
      (r) =>
        r.account_id === q.accountId &&
        (!q.environment || r.environment === q.environment) &&
        (!q.clientId || r.client_id === q.clientId) &&
        (!q.path || r.path.includes(q.path)) &&
        (!q.from || r.at >= q.from.getTime()) &&
        (!q.to || r.at < q.to.getTime()) &&
        status(r.status),
    )
    .sort((x, y) => y.at - x.at);
}

test('the list: both stores as one, newest first, every filter and page as the lines sorted here', async () => {
  const repository = requestLogRepository(db.kysely);
  const queries: RequestLogQuery[] = [
    { accountId: 1 },
    { accountId: 1, environment: 'sandbox' },
    { accountId: 1, status: 'failed' },
    { accountId: 1, status: '2xx', clientId: 'client-b' },
    { accountId: 1, status: '200', path: 'products/3' },
    { accountId: 1, path: 'orders' },
    { accountId: 1, from: new Date(T0 + 30 * 60_000), to: new Date(T0 + 3 * HOUR) },
    { accountId: 1, to: new Date(T0 + 5 * 60_000) },
    { accountId: 2, environment: 'sandbox' },
    { accountId: 3 },
  ];
  for (const q of queries) {
    const all = expected(q);
    for (const page of [
      { limit: 51, offset: 0 },
      { limit: 51, offset: 50 },
      { limit: 201, offset: 1000 },
      { limit: 51, offset: Math.max(0, all.length - 20) },
    ]) {
      const got = await repository.list(q, page);
      const want = all.slice(page.offset, page.offset + page.limit);
      const label = `${JSON.stringify(q)} ${JSON.stringify(page)}`;
      assert.equal(got.length, want.length, label);
      // lines of one millisecond may come in either order; the times and the set of each are the same
      assert.deepEqual(
        got.map((r) => r.at.getTime()),
        want.map((r) => r.at),
        label,
      );
      const ids = (rs: Array<{ request_id: string }>) => rs.map((r) => r.request_id).sort();
      if (page.offset === 0 && want.length < page.limit) assert.deepEqual(ids(got), ids(want), label);
      for (const r of got) {
        const w = written.find((x) => x.request_id === r.request_id && x.account_id === q.accountId);
        assert.ok(w, label);
        assert.deepEqual(
          [
            r.at.getTime(),
            r.method,
            r.path,
            r.status,
            r.latency_ms,
            r.environment,
            r.client_id,
            r.request_body,
          ],
          [w.at, w.method, w.path, w.status, w.latency_ms, w.environment, w.client_id, w.request_body],
          label,
        );
      }
    }
  }
});

test('pages do not overlap: a line of one millisecond shared with others is on exactly one page', async () => {
  const repository = requestLogRepository(db.kysely);
  const seen: string[] = [];
  for (let offset = 0; ; offset += 40) {
    const page = await repository.list({ accountId: 1 }, { limit: 40, offset });
    seen.push(...page.map((r) => r.request_id));
    if (page.length < 40) break;
  }
  assert.equal(new Set(seen).size, seen.length, 'no line twice');
  assert.equal(seen.length, expected({ accountId: 1 }).length, 'every line once');
});

test('the retention removes a segment once its last line is older, and the rows as before', async () => {
  const repository = requestLogRepository(db.kysely);
  const cutoff = new Date(T0 + 2 * HOUR);
  assert.equal(await repository.hasOlderThan(cutoff), true);
  let lines = 0;
  for (let n = { segments: 1, lines: 0 }; n.segments > 0; ) {
    n = await repository.removeReadsOlderThan(cutoff, 7);
    lines += n.lines;
  }
  await repository.removeOlderThan(cutoff, 100_000);
  assert.equal(await repository.hasOlderThan(cutoff), false);
  const left = await repository.list({ accountId: 1 }, { limit: 100_000, offset: 0 });
  assert.ok(
    left.every((r) => r.at.getTime() >= cutoff.getTime() - SEGMENT_SPAN_MS),
    'nothing older is left',
  );
  const kept = new Set(left.map((r) => r.request_id));
  const newer = written.filter((r) => r.account_id === 1 && r.at >= cutoff.getTime());
  assert.ok(newer.length > 0 && newer.every((r) => kept.has(r.request_id)), 'every newer line is kept');
  const older = written.filter((r) => r.at < cutoff.getTime()).length; // both accounts'
  assert.ok(lines > 0 && lines <= older, `${lines} of ${older} older lines removed from segments`);
});

test('one batch a second waits for the disk; the batches between commit without waiting', async () => {
  const repository = requestLogRepository(db.kysely);
  // the WAL written out by commits (PostgreSQL 18's I/O statistics: PGlite's database): a commit that
  // waits for the disk writes its WAL and syncs it; one that does not wait leaves it in memory
  const walSyncs = async () => {
    await sql`SELECT pg_stat_force_next_flush()`.execute(db.kysely);
    const { rows } = await sql<{ n: string }>`
      SELECT sum(writes) AS n FROM pg_stat_io WHERE object = 'wal'`.execute(db.kysely);
    return Number(rows[0].n);
  };
  const before = await walSyncs();
  const at = T0 + 7 * HOUR;
  for (let b = 0; b < 10; b++)
    await repository.insert([row(90_000 + b, at + b), row(91_000 + b, at + b, { status: 500 })]);
  const synced = (await walSyncs()) - before;
  assert.ok(synced >= 1 && synced <= 2, `${synced} of 10 batches waited for the disk`);
  const listed = await repository.list({ accountId: 1, from: new Date(at) }, { limit: 100, offset: 0 });
  assert.equal(listed.length, 20, 'every batch written all the same');
});

import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ApiRequestLogTable, withRequestLogTables } from './request-log-tables.ts';

/** A row as written: already masked (`rowOf` in request-log-service.ts); the table's columns, the time in ms. */
export type RequestLogRow = Omit<ApiRequestLogTable, 'id' | 'at' | 'account_id' | 'transaction_id'> & {
  at: number;
  account_id: number;
  transaction_id: number | null;
};

export interface RequestLogQuery {
  accountId: number;
  environment?: string;
  /** `failed` (400 and above), a class (`4xx`), or one status (`404`) */
  status?: string;
  /** a part of the path */
  path?: string;
  clientId?: string;
  from?: Date;
  to?: Date;
}

/** A line as the list reads it, from either table. */
export type StoredRequest = Pick<
  ApiRequestLogTable,
  | 'at'
  | 'environment'
  | 'product'
  | 'client_id'
  | 'method'
  | 'path'
  | 'status'
  | 'latency_ms'
  | 'request_id'
  | 'request_body'
  | 'response_body'
>;

/**
 * The lines of one segment (a row of api_request_reads) lie at most this far apart: the worker removes
 * a segment whole once its last line is past the retention, so its first line outlives the retention
 * by at most this much.
 */
export const SEGMENT_SPAN_MS = 60_000;

/** How often a batch of the log waits for its commit to reach the disk: at most a second is lost to a crash. */
export const DURABLE_EVERY_MS = 1000;

/** A line that keeps a row of its own (a failure, with its bodies); every other is a segment's line. */
export const ownsRow = (r: { status: number }) => r.status >= 400;

/**
 * The window of time around a transaction's creation where its creating request's line lies, which
 * the transaction's page reads the account's segments of. Before: the line's time is the request's
 * arrival, and the order may have waited for its batch, or a live order for the upstream, whose
 * timeout is at most 600 s (UPSTREAM_TIMEOUT_SECONDS). After: the line's time is taken when the
 * answer has gone out, on a clock that may have stepped meanwhile (the suites' clocks do).
 */
export const CREATOR_WINDOW_MS = { before: 15 * 60_000, after: 5 * 60_000 };

export interface Segment {
  account_id: number;
  environment: string;
  product: string;
  client_id: string;
  first_at: number;
  last_at: number;
  /** its lines, each `[at ms, method, path, status, latency ms, request id]` as JSON (`lineText`) */
  lines: string[];
  /**
   * or, for the reads' segments that request-log-kept-lines.ts cuts, its lines as the UTF-8 bytes of
   * their JSON array, brackets included (`lines` empty), sent as they lie
   */
  bytes?: Buffer;
  /** how many lines its parts hold */
  count: number;
  /** the transactions its lines created, and at the same position the creating request's id */
  createdTransactions: number[];
  creatingRequests: string[];
}

const SEPARATOR = '\0';

/**
 * A successful request that created a transaction (an order, a top-up) as the request log keeps it
 * until its batch is written (`readOf(rowOf(entry))` in request-log-service.ts; a read's line is kept
 * as bytes, request-log-kept-lines.ts): one string, made of its segment's key, the transaction it
 * created, its request id and its line as the segment stores it, separated by NUL (which storableText
 * keeps out of every part). A string, not an object: V8 watches how many of the objects an object or array literal
 * makes outlive a young collection and, when most do, allocates that literal's objects straight into
 * the old generation from then on (pretenuring). Entries kept as objects for their batch's 30–200 ms,
 * and rows all alive while their batch was written, were pretenured so: ~550 B of each kept read
 * went to the old generation, collected only by full collections. Strings are not watched.
 */
export function readOf(r: RequestLogRow): string {
  const line = lineText(r.at, r.method, r.path, r.status, r.latency_ms, r.request_id);
  // join, not a template: a template of thirteen parts is a rope of a dozen string objects, which
  // the young collections copy (and promote) while the entry waits; join makes one flat string.
  const parts = [
    r.account_id,
    r.environment,
    r.product,
    r.client_id,
    r.transaction_id ?? '',
    r.request_id,
    line,
  ];
  return parts.join(SEPARATOR);
}

/** A line as a segment stores it: `[at ms, method, path, status, latency ms, request id]` as JSON. */
export function lineText(
  at: number,
  method: string,
  path: string,
  status: number,
  latencyMs: number,
  requestId: string,
): string {
  return JSON.stringify([at, method, path, status, latencyMs, requestId]);
}

/** A segment of one client whose first line came at `at`, with no line yet. */
export function newSegment(
  accountId: number,
  environment: string,
  product: string,
  clientId: string,
  at: number,
): Segment {
  return {
    account_id: accountId,
    environment,
    product,
    client_id: clientId,
    first_at: at,
    last_at: at,
    lines: [],
    count: 0,
    createdTransactions: [],
    creatingRequests: [],
  };
}

/** Can a line at `at` join the segment, its lines staying within SEGMENT_SPAN_MS of each other? */
export function spans(s: Segment, at: number): boolean {
  return at - s.first_at <= SEGMENT_SPAN_MS && s.last_at - at <= SEGMENT_SPAN_MS;
}

/** Counts a line at `at` into the segment (its text is added by the caller, as a string or as bytes). */
export function countLine(s: Segment, at: number): void {
  if (at < s.first_at) s.first_at = at;
  if (at > s.last_at) s.last_at = at;
  s.count++;
}

/** The successful lines of a batch (rows, or `readOf` strings), as segments: one per client, a minute at most. */
export function segmentsOf(reads: Array<RequestLogRow | string>): Segment[] {
  const open = new Map<string, Segment>();
  const done: Segment[] = [];
  for (const read of reads) {
    const kept = typeof read === 'string' ? read : readOf(read);
    let end = -1;
    for (let i = 0; i < 4; i++) end = kept.indexOf(SEPARATOR, end + 1);
    const key = kept.slice(0, end);
    const afterTransaction = kept.indexOf(SEPARATOR, end + 1);
    const afterRequest = kept.indexOf(SEPARATOR, afterTransaction + 1);
    const line = kept.slice(afterRequest + 1);
    const at = Number(line.slice(1, line.indexOf(',')));
    let segment = open.get(key);
    if (segment && !spans(segment, at)) {
      done.push(segment);
      segment = undefined;
    }
    if (!segment) {
      const [account, environment, product, client] = key.split(SEPARATOR);
      segment = newSegment(Number(account), environment, product, client, at);
      open.set(key, segment);
    }
    countLine(segment, at);
    segment.lines.push(line);
    if (afterTransaction > end + 1) {
      segment.createdTransactions.push(Number(kept.slice(end + 1, afterTransaction)));
      segment.creatingRequests.push(kept.slice(afterTransaction + 1, afterRequest));
    }
  }
  return [...done, ...open.values()];
}

/** A time range of lines: from (included) to (excluded). */
interface TimeRange {
  from?: Date;
  to?: Date;
}

/**
 * The only SQL of the request log. A batch is ONE statement whatever its size: its own rows go in as
 * one JSON parameter (`json_to_recordset`), its segments as a VALUES row each (a batch has one or
 * two per client: its reads, and its orders), with the transactions their lines created as two
 * arrays. The list reads the rows and the segments' lines as one table, newest first.
 */
export function requestLogRepository(appDb: Kysely<Database>) {
  const db = withRequestLogTables(appDb);
  /** When a batch last waited for the disk (ms). */
  let durableAt = 0;

  /**
   * The filters as conditions: on a line (`at` of a row of api_request_log, or `e.` for a segment's
   * line) and on the segments (`s.`), whose first and last times bound their lines'.
   */
  function conditions(q: RequestLogQuery, w: TimeRange) {
    const on = (prefix: string) => {
      const c = (column: string) => sql.raw(`${prefix}${column}`);
      const line: RawBuilder<unknown>[] = [];
      if (w.from) line.push(sql`${c('at')} >= ${w.from}`);
      if (w.to) line.push(sql`${c('at')} < ${w.to}`);
      if (q.path) line.push(sql`strpos(${c('path')}, ${q.path}) > 0`);
      const status = q.status;
      if (status === 'failed') line.push(sql`${c('status')} >= 400`);
      else if (status && /^[1-5]xx$/.test(status)) {
        const low = Number(status[0]) * 100;
        line.push(sql`${c('status')} >= ${low}`, sql`${c('status')} < ${low + 100}`);
      } else if (status) line.push(sql`${c('status')} = ${Number(status)}`);
      return line;
    };
    const own: RawBuilder<unknown>[] = [sql`account_id = ${q.accountId}`];
    const segment: RawBuilder<unknown>[] = [sql`s.account_id = ${q.accountId}`];
    if (q.environment) own.push(sql`environment = ${q.environment}`);
    if (q.environment) segment.push(sql`s.environment = ${q.environment}`);
    if (q.clientId) own.push(sql`client_id = ${q.clientId}`);
    if (q.clientId) segment.push(sql`s.client_id = ${q.clientId}`);
    if (w.from) segment.push(sql`s.last_at >= ${w.from}`);
    if (w.to) segment.push(sql`s.first_at < ${w.to}`);
    // segments hold successes only: a filter on failures reads none of them
    const failuresOnly = q.status === 'failed' || /^[45]/.test(q.status ?? '');
    return { own: [...own, ...on('')], segment: [...segment, ...on('e.')], segments: !failuresOnly };
  }

  /** Every line of the account that passes the filters, in the time range, as one table. */
  function lines(q: RequestLogQuery, w: TimeRange) {
    const c = conditions(q, w);
    const own = sql`
      SELECT at, 1 AS source, id AS seq, 0::bigint AS place, environment, product, client_id, method, path, status, latency_ms,
             request_id, request_body, response_body
      FROM api_request_log WHERE ${sql.join(c.own, sql` AND `)}`;
    if (!c.segments) return own;
    return sql`${own}
      UNION ALL
      SELECT e.at, 0, s.id, e.n, s.environment, s.product, s.client_id, e.method, e.path, e.status,
             e.latency_ms, e.request_id, NULL, NULL
      FROM api_request_reads s
      CROSS JOIN LATERAL (
        SELECT to_timestamp((v->>0)::float8 / 1000.0) AS at, v->>1 AS method, v->>2 AS path,
               (v->>3)::smallint AS status, (v->>4)::real AS latency_ms, v->>5 AS request_id, n
        FROM json_array_elements(s.entries::json) WITH ORDINALITY AS x(v, n)) e
      WHERE ${sql.join(c.segment, sql` AND `)}`;
  }

  /** Holds the range at least `need` lines? Stops reading segments once it has found them. */
  async function holds(q: RequestLogQuery, w: TimeRange, need: number): Promise<boolean> {
    const { rows } = await sql<{ n: number | string }>`
      SELECT count(*) AS n FROM (SELECT 1 FROM (${lines(q, w)}) l LIMIT ${need}) found`.execute(db);
    return Number(rows[0].n) >= need;
  }

  return {
    /**
     * Writes a batch: rows, successful requests as rows or as `readOf` strings, and segments already
     * cut (request-log-kept-lines.ts).
     */
    async insert(rows: Array<RequestLogRow | string>, cut: Segment[] = []): Promise<void> {
      if (rows.length === 0 && cut.length === 0) return;
      const own: RequestLogRow[] = [];
      const reads: Array<RequestLogRow | string> = [];
      for (const r of rows) (typeof r !== 'string' && ownsRow(r) ? own : reads).push(r);
      const segments = reads.length > 0 ? [...segmentsOf(reads), ...cut] : cut;
      const ownRows = sql`
        INSERT INTO api_request_log (at, account_id, environment, product, client_id, method, path, status,
                                     latency_ms, request_id, request_body, response_body, transaction_id)
        SELECT to_timestamp(r.at / 1000.0), r.account_id, r.environment, r.product, r.client_id, r.method,
               r.path, r.status, r.latency_ms, r.request_id, r.request_body, r.response_body, r.transaction_id
        FROM json_to_recordset(${JSON.stringify(own)}::json) AS r(
          at double precision, account_id bigint, environment text, product text, client_id text,
          method text, path text, status smallint, latency_ms real, request_id text,
          request_body text, response_body text, transaction_id bigint)`;
      if (segments.length === 0) {
        await ownRows.execute(db);
        return;
      }
      // A segment's lines go in as text, parsed by nothing on the way in: a JSON parameter would make
      // PostgreSQL parse every line, which cost the embedded database most of what a row had cost.
      // Bytes (`s.bytes`) go as a binary parameter, which for text is its UTF-8 as it is (both
      // drivers send bytes so: db/database.ts).
      const created = (s: Segment) => s.createdTransactions.length > 0;
      const values = segments.map(
        (s) => sql`(${s.account_id}::bigint, ${s.environment}::text, ${s.product}::text, ${s.client_id}::text,
          to_timestamp(${s.first_at}::float8 / 1000.0), to_timestamp(${s.last_at}::float8 / 1000.0),
          ${s.count}::integer, ${s.bytes ?? `[${s.lines.join(',')}]`}::text,
          ${created(s) ? s.createdTransactions : null}::bigint[], ${created(s) ? s.creatingRequests : null}::text[])`,
      );
      // A log, not a ledger: one batch a second waits for the disk, the others commit without
      // waiting (their WAL goes with the next commit that waits: an order's, or this log's next
      // second). On the embedded database each wait was an fdatasync in the server's own thread,
      // 35 a second under a read load. A crash may lose the last second of lines, never more. The
      // setting is made in the statement itself (set_config, local to its transaction): one round
      // trip, where BEGIN, SET LOCAL, the INSERT and COMMIT took four.
      const now = Date.now();
      const durable = now - durableAt >= DURABLE_EVERY_MS;
      if (durable) durableAt = now;
      const commit = durable
        ? sql.raw('')
        : sql`CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`;
      const readRows = sql`
        INSERT INTO api_request_reads (account_id, environment, product, client_id, first_at, last_at, lines, entries,
                                       created_transactions, creating_requests)
        SELECT v.* FROM (VALUES ${sql.join(values)}) AS v(account_id, environment, product, client_id, first_at,
                                                          last_at, lines, entries, created_transactions, creating_requests)
        ${commit}`;
      // one statement, so a batch is written whole or not at all
      await (own.length ? sql`WITH own AS (${ownRows}) ${readRows}` : readRows).execute(db);
    },
    /**
     * The request id of the request that created a transaction (created at `createdAt`), while its
     * line is kept: in the segments of the account around that time (migration 0035), or in a row of
     * api_request_log written before it.
     */
    async creatorOf(
      accountId: number,
      environment: string,
      product: string,
      transactionId: number,
      createdAt: Date,
    ) {
      const earliest = new Date(createdAt.getTime() - CREATOR_WINDOW_MS.before);
      const latest = new Date(createdAt.getTime() + CREATOR_WINDOW_MS.after);
      const { rows } = await sql<{ request_id: string | null }>`
        SELECT coalesce(
          (SELECT s.creating_requests[array_position(s.created_transactions, ${transactionId}::bigint)]
           FROM api_request_reads s
           WHERE s.account_id = ${accountId} AND s.last_at >= ${earliest}
             AND s.last_at < ${latest}::timestamptz + make_interval(secs => ${SEGMENT_SPAN_MS / 1000})
             AND s.first_at < ${latest} AND s.environment = ${environment} AND s.product = ${product}
             AND ${transactionId}::bigint = ANY (s.created_transactions)
           ORDER BY s.id LIMIT 1),
          (SELECT request_id FROM api_request_log
           WHERE account_id = ${accountId} AND product = ${product} AND transaction_id = ${transactionId}
             AND environment = ${environment}
           ORDER BY id LIMIT 1)) AS request_id`.execute(db);
      return rows[0]?.request_id ?? null;
    },

    /**
     * One page of the account's lines, newest first (`limit` of them after `offset`). The segments'
     * lines are read in a window of time that grows eightfold from the last minute before the newest
     * line until it holds the page (each look stops parsing once it has found enough), so the first
     * pages of a long log parse only the last minutes' segments.
     */
    async list(q: RequestLogQuery, page: { limit: number; offset: number }): Promise<StoredRequest[]> {
      const select = (w: TimeRange) =>
        sql<StoredRequest>`SELECT * FROM (${lines(q, w)}) l
          ORDER BY at DESC, source DESC, seq DESC, place DESC LIMIT ${page.limit} OFFSET ${page.offset}`
          .execute(db)
          .then((r) => r.rows);
      const { rows } = await sql<{ newest: Date | null; oldest: Date | null }>`
        SELECT greatest((SELECT max(at) FROM api_request_log WHERE account_id = ${q.accountId}),
                        (SELECT max(last_at) FROM api_request_reads WHERE account_id = ${q.accountId})) AS newest,
               least((SELECT min(at) FROM api_request_log WHERE account_id = ${q.accountId}),
                     (SELECT min(last_at) FROM api_request_reads WHERE account_id = ${q.accountId})
                       - make_interval(secs => ${SEGMENT_SPAN_MS / 1000})) AS oldest`.execute(db);
      const { newest, oldest } = rows[0];
      if (!newest || !oldest) return [];
      const need = page.offset + page.limit;
      const to = Math.min(q.to?.getTime() ?? Number.POSITIVE_INFINITY, new Date(newest).getTime() + 1);
      const floor = Math.max(q.from?.getTime() ?? Number.NEGATIVE_INFINITY, new Date(oldest).getTime());
      for (let span = 60_000; to - span > floor; span *= 8) {
        const w = { from: new Date(to - span), to: new Date(to) };
        if (q.from && q.from > w.from) w.from = q.from;
        if (await holds(q, w, need)) return select(w);
      }
      return select({ from: q.from, to: q.to });
    },

    /** Is any row or segment older than `cutoff` left? */
    async hasOlderThan(cutoff: Date): Promise<boolean> {
      const { rows } = await sql<{ old: boolean }>`
        SELECT EXISTS (SELECT 1 FROM api_request_log WHERE at < ${cutoff})
            OR EXISTS (SELECT 1 FROM api_request_reads WHERE last_at < ${cutoff}) AS old`.execute(db);
      return rows[0].old;
    },

    /**
     * Removes at most `limit` rows older than `cutoff`, oldest first; rows another server is removing
     * at the same moment are skipped, not waited for. Returns how many it removed.
     */
    async removeOlderThan(cutoff: Date, limit: number): Promise<number> {
      const result = await sql`
        DELETE FROM api_request_log WHERE id IN (
          SELECT id FROM api_request_log WHERE at < ${cutoff} ORDER BY at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`.execute(
        db,
      );
      return Number(result.numAffectedRows ?? 0);
    },

    /**
     * The same for the segments whose last line is older than `cutoff`: at most `limit` of them.
     * Returns how many segments and how many lines it removed.
     */
    async removeReadsOlderThan(cutoff: Date, limit: number): Promise<{ segments: number; lines: number }> {
      const { rows } = await sql<{ lines: number }>`
        DELETE FROM api_request_reads WHERE id IN (
          SELECT id FROM api_request_reads WHERE last_at < ${cutoff} ORDER BY last_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING lines`.execute(db);
      return { segments: rows.length, lines: rows.reduce((n, r) => n + r.lines, 0) };
    },
  };
}

export type RequestLogRepository = ReturnType<typeof requestLogRepository>;

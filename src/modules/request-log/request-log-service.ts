import { AppError } from '../../errors/error-codes.ts';
import type { ApiRequestEntry, ApiRequestSink } from '../../http/api-request-log.ts';
import type { Clock } from '../../lib/clock.ts';
import { maskSecretFields, redactUrl, storableText } from '../../lib/log-redaction.ts';
import { formatDateTime, parseDateTime, timeRange } from '../../lib/time-format.ts';
import { createRequestLogBuffer } from './request-log-buffer.ts';
import { createKeptLines } from './request-log-kept-lines.ts';
import {
  ownsRow,
  type RequestLogRepository,
  type RequestLogRow,
  readOf,
  type StoredRequest,
} from './request-log-repository.ts';

/**
 * The API request log of each account (issue 28): every product-API request of the last
 * REQUEST_LOG_DAYS days (time, environment, client id, method, path, status, latency, request id)
 * and, for a failed one (4xx, 5xx), what was sent and answered. Nothing secret is kept: query
 * parameters and text shaped like secrets are masked, fields named like secrets (client_secret,
 * tokens, card numbers, PINs) are replaced, and the bodies of successful requests (which may carry
 * codes) are never kept at all. Rows are written in batches off the request path
 * (request-log-buffer.ts) and removed by the worker once older than the retention.
 *
 * @example
 * const log = createRequestLog({ repository, clock, days: 30 });
 * log.sink.add(entry);                       // from the request hooks and the fast lane
 * await log.list(7, { environment: 'sandbox', status: 'failed' }, { limit: 50, offset: 0 });
 * await log.removeExpired();                 // the worker
 */
export interface RequestLogFilter {
  environment?: string;
  status?: string;
  path?: string;
  clientId?: string;
  startDate?: string;
  endDate?: string;
}

/** A failed request's body or answer as kept: masked, at most this many characters. */
const MAX_BODY = 4096;
const REMOVE_BATCH = 5000;
/** Segments of successful reads (request-log-repository.ts) hold up to a batch (2,000 lines) each. */
const REMOVE_SEGMENTS = 100;
const REMOVE_BATCHES_PER_RUN = 20;
const DAY_MS = 86_400_000;
/** A read's place in the buffer (a small integer: V8 allocates nothing for it). */
const KEPT_LINE = 0;

function bodyText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  let text: string;
  if (typeof value === 'string') {
    // an answer: JSON whose strings are masked too
    try {
      text = JSON.stringify(maskSecretFields(JSON.parse(value)));
    } catch {
      text = String(maskSecretFields(value));
    }
  } else text = JSON.stringify(maskSecretFields(value));
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text;
}

/** An entry as stored: its URL redacted, its bodies masked (a failure's when written, off the request path). */
export function rowOf(e: ApiRequestEntry): RequestLogRow {
  return {
    // whole ms: what the dashboard shows (a Date's precision), and a line's number written cheaply
    at: Math.floor(e.at),
    account_id: e.accountId,
    environment: e.environment,
    product: e.product,
    client_id: storableText(e.clientId),
    method: e.method,
    path: storableText(redactUrl(e.path)),
    status: e.status,
    latency_ms: Math.round(e.latencyMs * 100) / 100,
    request_id: storableText(e.requestId),
    request_body: ownsRow(e) ? bodyText(e.requestBody) : null,
    response_body: ownsRow(e) ? bodyText(e.responseBody) : null,
    transaction_id: e.transactionId ?? null,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function view(r: StoredRequest) {
  return {
    requestId: r.request_id,
    at: `${formatDateTime(r.at)}.${pad(r.at.getUTCMilliseconds(), 3)}`,
    environment: r.environment as 'live' | 'sandbox',
    product: r.product as 'giftcards' | 'topups' | 'auth',
    clientId: r.client_id,
    method: r.method,
    path: r.path,
    status: r.status,
    latencyMs: Number(r.latency_ms),
    requestBody: r.request_body,
    responseBody: r.response_body,
  };
}

export function createRequestLog(deps: {
  repository: RequestLogRepository;
  clock: Clock;
  /** REQUEST_LOG_DAYS: how long rows are kept; 0: nothing is logged */
  days: number;
}) {
  const { repository, clock, days } = deps;
  const problems: Array<(error: unknown, entries: number) => void> = [];
  // A success that created nothing (a read) is kept as bytes (request-log-kept-lines.ts), and the
  // buffer holds KEPT_LINE in its place, which counts toward its batches and its bound like any entry:
  // a batch of n of them takes the first n lines kept, in the order they came. A success that created
  // a transaction is kept as its line (readOf: masked now, a string); a failure as it came, its bodies
  // masked when written.
  const kept = createKeptLines();
  const buffer = createRequestLogBuffer<ApiRequestEntry | string | typeof KEPT_LINE>({
    write: (batch) => {
      // The batch's lines are taken first, before anything that could throw (a failure's row) and
      // before any wait: whatever becomes of this batch, the next one takes the lines after these.
      let lines = 0;
      for (const k of batch) if (k === KEPT_LINE) lines++;
      const segments = kept.take(lines);
      const rows: Array<RequestLogRow | string> = [];
      for (const k of batch) if (k !== KEPT_LINE) rows.push(typeof k === 'string' ? k : rowOf(k));
      return repository.insert(rows, segments);
    },
    onError: (error, entries) => {
      for (const listener of problems) listener(error, entries);
    },
  });

  /** A read's place in the buffer, asked for once its line is made (one function, not one per read). */
  const admit = () => buffer.add(KEPT_LINE);

  return {
    /** What the request hooks and the fast lane hand entries to (app.ts installs none when the log is off). */
    sink: {
      add: (entry) => {
        if (ownsRow(entry)) buffer.add(entry);
        else if (entry.transactionId !== undefined) buffer.add(readOf(rowOf(entry)));
        else kept.add(rowOf(entry), admit);
      },
    } satisfies ApiRequestSink,
    flush: () => buffer.flush(),
    close: () => buffer.close(),
    stats: () => buffer.stats(),
    /** Hears each batch that could not be written (its entries are dropped and counted). */
    onWriteError(listener: (error: unknown, entries: number) => void) {
      problems.push(listener);
    },

    /**
     * The id of the API request that created a transaction (null: not logged, or no longer kept);
     * `transaction.createdAt` as its page shows it (UTC, whole seconds: the look-up reads minutes
     * around it).
     */
    async creatorOf(
      accountId: number,
      environment: string,
      product: 'giftcards' | 'topups',
      transaction: { transactionId: number; createdAt: string },
    ) {
      const createdAt = parseDateTime(transaction.createdAt);
      if (!createdAt) return null;
      return repository.creatorOf(accountId, environment, product, transaction.transactionId, createdAt);
    },

    /** One page of an account's requests, newest first; `hasMore` when a next page has some. */
    async list(accountId: number, f: RequestLogFilter, page: { limit: number; offset: number }) {
      let range: { from?: Date; to?: Date };
      try {
        range = timeRange(f.startDate, f.endDate);
      } catch (error) {
        throw new AppError('INVALID_REQUEST', (error as Error).message);
      }
      const rows = await repository.list(
        {
          accountId,
          environment: f.environment,
          status: f.status,
          path: f.path,
          clientId: f.clientId,
          ...range,
        },
        { limit: page.limit + 1, offset: page.offset },
      );
      return {
        items: rows.slice(0, page.limit).map(view),
        hasMore: rows.length > page.limit,
        retentionDays: days,
      };
    },

    /** Is anything older than the retention left (the worker's `due`)? */
    expiredLeft: () => repository.hasOlderThan(new Date(clock.now().getTime() - days * DAY_MS)),

    /**
     * Removes rows and segments older than the retention, in batches, at most REMOVE_BATCHES_PER_RUN
     * of each (the worker runs again while some are left). Returns how many lines it removed.
     */
    async removeExpired(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - days * DAY_MS);
      let removed = 0;
      for (let i = 0; i < REMOVE_BATCHES_PER_RUN; i++) {
        const n = await repository.removeOlderThan(cutoff, REMOVE_BATCH);
        removed += n;
        if (n < REMOVE_BATCH) break;
      }
      for (let i = 0; i < REMOVE_BATCHES_PER_RUN; i++) {
        const n = await repository.removeReadsOlderThan(cutoff, REMOVE_SEGMENTS);
        removed += n.lines;
        if (n.segments < REMOVE_SEGMENTS) break;
      }
      return removed;
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;

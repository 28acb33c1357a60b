import type { ApiRequestEntry, ApiRequestSink } from '../../http/api-request-log.ts';

/**
 * The request path's side of the request log: entries are kept in memory and written in batches by a
 * timer, never by the request that made them. A batch is written `intervalMs` after its first entry
 * or as soon as `batchRows` are waiting, as one INSERT (`write`); writes run one after the other,
 * each in a connection of its own (never inside a request's transaction). When `maxBuffered` entries
 * are waiting (the database slow or away) new entries are dropped and counted, never waited for; so
 * is a batch whose write failed.
 *
 * @example
 * const buffer = createRequestLogBuffer({ write: (entries) => repository.insert(entries.map(rowOf)) });
 * buffer.add(entry);      // from a hook: no I/O, no await
 * await buffer.close();   // at shutdown: what is waiting is written
 */
export interface RequestLogBufferOptions {
  write(entries: ApiRequestEntry[]): Promise<void>;
  batchRows?: number;
  intervalMs?: number;
  maxBuffered?: number;
  /** Told of a failed write (its entries are dropped). */
  onError?(error: unknown, entries: number): void;
}

export interface RequestLogStats {
  written: number;
  dropped: number;
  buffered: number;
}

export function createRequestLogBuffer(o: RequestLogBufferOptions): ApiRequestSink & {
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): RequestLogStats;
} {
  const batchRows = o.batchRows ?? 500;
  const intervalMs = o.intervalMs ?? 200;
  const maxBuffered = o.maxBuffered ?? 20_000;
  let waiting: ApiRequestEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let timerDue = Number.POSITIVE_INFINITY;
  let flushing: Promise<void> | null = null;
  let closed = false;
  let written = 0;
  let dropped = 0;

  function flushIn(ms: number) {
    const due = Date.now() + ms;
    if (timer && timerDue <= due) return;
    if (timer) clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(() => {
      timer = null;
      timerDue = Number.POSITIVE_INFINITY;
      void flush();
    }, ms);
    timer.unref();
  }

  /** Writes what is waiting, batch after batch, until nothing is (entries added meanwhile included). */
  function flush(): Promise<void> {
    flushing ??= (async () => {
      while (waiting.length > 0) {
        const batch = waiting.length <= batchRows ? waiting : waiting.slice(0, batchRows);
        waiting = waiting.length <= batchRows ? [] : waiting.slice(batchRows);
        try {
          await o.write(batch);
          written += batch.length;
        } catch (error) {
          dropped += batch.length;
          o.onError?.(error, batch.length);
        }
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    add(entry) {
      if (closed || waiting.length >= maxBuffered) {
        dropped++;
        return;
      }
      waiting.push(entry);
      // a full batch goes at once; else the first entry of a batch sets its deadline
      if (waiting.length >= batchRows) flushIn(0);
      else if (!timer) flushIn(intervalMs);
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
    stats: () => ({ written, dropped, buffered: waiting.length }),
  };
}

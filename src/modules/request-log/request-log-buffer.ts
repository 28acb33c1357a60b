/**
 * The request path's side of the request log: entries (what request-log-service.ts keeps of each
 * request) are kept in memory and written in batches by a timer, never by the request that made
 * them. A batch is written `intervalMs` after its first entry or as soon as `batchRows` are waiting,
 * as one INSERT (`write`); writes run one after the other, each in a connection of its own (never
 * inside a request's transaction). When `maxBuffered` entries are waiting (the database slow or
 * away) new entries are dropped and counted, never waited for; so is a batch whose write failed.
 *
 * @example
 * const buffer = createRequestLogBuffer<string>({ write: (lines) => repository.insert(lines) });
 * buffer.add(entry);      // from a hook: no I/O, no await
 * await buffer.close();   // at shutdown: what is waiting is written
 */
export interface RequestLogBufferOptions<T> {
  write(entries: T[]): Promise<void>;
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

export function createRequestLogBuffer<T>(o: RequestLogBufferOptions<T>): {
  /** Keeps an entry for its batch; false: dropped (closed, or the bound reached). */
  add(entry: T): boolean;
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): RequestLogStats;
} {
  // 2,000, not 500: on the embedded database each batch's statement runs in the server's own thread,
  // ~0.3–0.5 ms a statement besides the cost of its lines (~87 bytes each); batches of 2,000 cost a
  // kept read there ~5% less CPU (bench/README.md, "A kept read's own work"). A batch waits intervalMs at most either way.
  const batchRows = o.batchRows ?? 2000;
  const intervalMs = o.intervalMs ?? 200;
  const maxBuffered = o.maxBuffered ?? 20_000;
  let waiting: T[] = [];
  /** When the first of the waiting entries came (Date.now()). */
  let waitingSince = 0;
  let timer: NodeJS.Timeout | null = null;
  let timerDue = Number.POSITIVE_INFINITY;
  let flushing: Promise<void> | null = null;
  /** Callers of flush() waiting: everything is written, not only the batches that are due. */
  let draining = 0;
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
      void writeDue();
    }, ms);
    timer.unref();
  }

  /** A batch is due when it is full, when its first entry has waited `intervalMs`, or when flush() asks. */
  const batchDue = () =>
    waiting.length >= batchRows ||
    (waiting.length > 0 && (draining > 0 || Date.now() - waitingSince >= intervalMs));

  /**
   * Writes the batches that are due, one after the other. Entries that came during a write wait for
   * their own deadline (a timer) unless they fill a batch: writing them at once made a batch's size
   * whatever came during one write (tens of rows under a read load, each batch a transaction).
   */
  function writeDue(): Promise<void> {
    flushing ??= (async () => {
      while (batchDue()) {
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
      if (waiting.length > 0) flushIn(Math.max(0, waitingSince + intervalMs - Date.now()));
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  /** Writes everything waiting, entries added meanwhile included. */
  async function flush(): Promise<void> {
    draining++;
    try {
      do await writeDue();
      while (waiting.length > 0);
    } finally {
      draining--;
    }
  }

  return {
    add(entry: T) {
      if (closed || waiting.length >= maxBuffered) {
        dropped++;
        return false;
      }
      if (waiting.push(entry) === 1) waitingSince = Date.now();
      // a full batch goes at once; else the first entry of a batch sets its deadline
      if (waiting.length >= batchRows) flushIn(0);
      else if (!timer) flushIn(intervalMs);
      return true;
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

import fs from 'node:fs';

/**
 * Where the server's log lines go (a file descriptor, stdout by default), written so that a log
 * reader that stops can never hold the process: lines are written asynchronously, in batches (one
 * write per 64 KiB of lines or 10 ms, whichever comes first); a broken pipe
 * (EPIPE) or any other write error turns logging off for good; a reader that stops reading makes
 * lines wait in a bounded buffer (past it they are dropped and counted); and the final flush at exit
 * is bounded in time. pino's default destination (sonic-boom) retries a failing write in an endless
 * loop at exit, which left a server whose stdout reader had gone running forever.
 *
 * @example
 * const destination = createLogDestination();
 * process.once('exit', () => destination.flushSync(200)); // and `await destination.flush()` on a clean stop
 * Fastify({ logger: { level: 'info', stream: destination } });
 */
export interface LogDestination {
  write(line: string): void;
  /** Writes what is buffered, synchronously, for at most `timeoutMs`; gives up on any error. */
  flushSync(timeoutMs?: number): void;
  /**
   * Resolves once every line written so far has been written out (none waiting, none in flight), or
   * after `timeoutMs`: a clean stop awaits it before exiting (shutdown.ts), since a write still in
   * libuv's thread pool when the process exits may never happen and `flushSync` cannot tell.
   */
  flush(timeoutMs?: number): Promise<void>;
  /** Lines dropped because the reader was gone or too slow. */
  readonly dropped: number;
  readonly broken: boolean;
}

const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const RETRY_MS = 20;
const BATCH_MS = 10;
const BATCH_BYTES = 64 * 1024;

export function createLogDestination(fd = 1, maxBufferedBytes = MAX_BUFFERED_BYTES): LogDestination {
  // Lines waiting for a write, as one string: appending is cheap (V8 joins strings lazily) and the
  // bytes are made once per write, not once per line. What arrives while a write is in flight goes
  // out in the next one.
  let pending = '';
  let pendingLines = 0;
  // Bytes to write before `pending`: what a slow reader refused (EAGAIN) or a partial write left.
  let unwritten: Buffer | null = null;
  let writing = false;
  let broken = false;
  let dropped = 0;
  let retryTimer: NodeJS.Timeout | null = null;

  let batchTimer: NodeJS.Timeout | null = null;
  const batchDue = () => {
    batchTimer = null;
    pump();
  };
  // Lines go out in batches, not one write each: a write costs a trip through libuv's thread pool
  // (several µs of this thread's time on a busy machine, as much as building the line), so lines
  // wait until BATCH_BYTES have gathered or BATCH_MS have passed, whichever comes first.
  const schedule = () => {
    if (writing || broken || retryTimer) return; // the write's end (or the retry) comes back here
    if (unwritten || pending.length >= BATCH_BYTES) pump();
    else if (pending.length > 0 && !batchTimer) {
      batchTimer = setTimeout(batchDue, BATCH_MS);
      batchTimer.unref();
    }
  };

  const giveUp = () => {
    broken = true;
    dropped += pendingLines;
    pending = '';
    pendingLines = 0;
    unwritten = null;
  };

  const pump = () => {
    if (writing || broken || retryTimer) return;
    if (batchTimer) {
      clearTimeout(batchTimer);
      batchTimer = null;
    }
    let chunk: Buffer;
    if (unwritten) {
      chunk = unwritten;
      unwritten = null;
    } else if (pending.length > 0) {
      chunk = Buffer.from(pending);
      pending = '';
      pendingLines = 0;
    } else return;
    writing = true;
    fs.write(fd, chunk, 0, chunk.length, null, (error, written) => {
      writing = false;
      if (error && (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK')) {
        // The reader is slow: try again shortly, keeping the order of the lines.
        unwritten = chunk;
        retryTimer = setTimeout(() => {
          retryTimer = null;
          pump();
        }, RETRY_MS);
        retryTimer.unref();
        return;
      }
      if (error) return giveUp();
      if (written < chunk.length) unwritten = chunk.subarray(written);
      schedule();
    });
  };

  return {
    write(line: string) {
      if (broken) return;
      // Characters, not bytes: a bound, not an account (a log line is almost all ASCII).
      if (pending.length + (unwritten?.length ?? 0) + line.length > maxBufferedBytes) {
        dropped++;
        return;
      }
      pending += line;
      pendingLines++;
      schedule();
    },
    async flush(timeoutMs = 1000) {
      const deadline = Date.now() + timeoutMs;
      while (!broken && (writing || pending.length > 0 || unwritten) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    flushSync(timeoutMs = 200) {
      if (broken || (pending.length === 0 && !unwritten)) return;
      const deadline = Date.now() + timeoutMs;
      let chunk = unwritten ? Buffer.concat([unwritten, Buffer.from(pending)]) : Buffer.from(pending);
      unwritten = null;
      pending = '';
      pendingLines = 0;
      while (chunk.length > 0) {
        try {
          chunk = chunk.subarray(fs.writeSync(fd, chunk));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if ((code !== 'EAGAIN' && code !== 'EWOULDBLOCK') || Date.now() >= deadline) {
            dropped++;
            broken = code !== 'EAGAIN' && code !== 'EWOULDBLOCK';
            return;
          }
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        }
      }
    },
    get dropped() {
      return dropped;
    },
    get broken() {
      return broken;
    },
  };
}

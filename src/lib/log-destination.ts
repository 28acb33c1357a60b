import fs from 'node:fs';

/**
 * Where the server's log lines go (a file descriptor, stdout by default), written so that a log
 * reader that stops can never hold the process: lines are written asynchronously; a broken pipe
 * (EPIPE) or any other write error turns logging off for good; a reader that stops reading makes
 * lines wait in a bounded buffer (past it they are dropped and counted); and the final flush at exit
 * is bounded in time. pino's default destination (sonic-boom) retries a failing write in an endless
 * loop at exit, which left a server whose stdout reader had gone running forever.
 *
 * @example
 * const destination = createLogDestination();
 * process.once('exit', () => destination.flushSync(200));
 * Fastify({ logger: { level: 'info', stream: destination } });
 */
export interface LogDestination {
  write(line: string): void;
  /** Writes what is buffered, synchronously, for at most `timeoutMs`; gives up on any error. */
  flushSync(timeoutMs?: number): void;
  /** Lines dropped because the reader was gone or too slow. */
  readonly dropped: number;
  readonly broken: boolean;
}

const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const RETRY_MS = 20;

export function createLogDestination(fd = 1, maxBufferedBytes = MAX_BUFFERED_BYTES): LogDestination {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let writing = false;
  let broken = false;
  let dropped = 0;
  let retryTimer: NodeJS.Timeout | null = null;

  const giveUp = () => {
    broken = true;
    dropped += pending.length;
    pending = [];
    pendingBytes = 0;
  };

  const pump = () => {
    if (writing || broken || retryTimer || pending.length === 0) return;
    const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    writing = true;
    fs.write(fd, chunk, 0, chunk.length, null, (error, written) => {
      writing = false;
      if (error && (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK')) {
        // The reader is slow: try again shortly, keeping the order of the lines.
        requeue(chunk);
        retryTimer = setTimeout(() => {
          retryTimer = null;
          pump();
        }, RETRY_MS);
        retryTimer.unref();
        return;
      }
      if (error) return giveUp();
      if (written < chunk.length) requeue(chunk.subarray(written));
      pump();
    });
  };

  const requeue = (rest: Buffer) => {
    pending.unshift(rest);
    pendingBytes += rest.length;
  };

  return {
    write(line: string) {
      if (broken) return;
      const buffer = Buffer.from(line);
      if (pendingBytes + buffer.length > maxBufferedBytes) {
        dropped++;
        return;
      }
      pending.push(buffer);
      pendingBytes += buffer.length;
      pump();
    },
    flushSync(timeoutMs = 200) {
      if (broken || pending.length === 0) return;
      const deadline = Date.now() + timeoutMs;
      let chunk = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
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

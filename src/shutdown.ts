import { Worker } from 'node:worker_threads';

/**
 * How the server stops, always. The first SIGTERM or SIGINT drains: `drain(graceMs)` stops accepting
 * connections and lets requests in flight finish for at most `graceMs`; then each step (stop the
 * workers, close the database) gets at most `STEP_TIMEOUT_MS`; then the process exits, 0 when every
 * step ended in time, else 1. A second
 * signal exits at once. Two deadlines make sure it ends whatever hangs: a timer on the main thread
 * (`graceMs + HARD_DEADLINE_EXTRA_MS`, deliberately not unref'd) exits 1, and a watchdog thread, which
 * a blocked main thread cannot hold up, sends SIGKILL a little later as the last resort.
 *
 * @example
 * installShutdown({ graceMs: 10_000, log: app.log, drain: (ms) => listening.close(ms),
 *   steps: [{ name: 'database', run: () => db.close() }] });
 */
export const STEP_TIMEOUT_MS = 1500;
export const HARD_DEADLINE_EXTRA_MS = 5000;
const WATCHDOG_EXTRA_MS = 2000;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

interface Log {
  info(o: object, message: string): void;
  warn(o: object, message: string): void;
  error(o: object, message: string): void;
}

export interface ShutdownOptions {
  graceMs: number;
  log: Log;
  drain: (graceMs: number) => Promise<unknown>;
  steps: { name: string; run: () => Promise<unknown> }[];
  /**
   * Last, after the "stopped" line: waits (bounded) until the log lines written so far have left the
   * process, so a clean stop loses none (lib/log-destination.ts writes asynchronously).
   */
  flushLogs?: () => Promise<unknown>;
  /** process.exit unless a test says otherwise. */
  exit?: (code: number) => void;
}

export function installShutdown(o: ShutdownOptions) {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      o.log.warn({ signal }, 'second signal during shutdown: exiting now');
      exit(SIGNAL_EXIT_CODES[signal] ?? 1);
      return;
    }
    stopping = true;
    void shutdown(signal);
  };

  async function shutdown(signal: NodeJS.Signals) {
    const started = Date.now();
    const deadlineMs = o.graceMs + HARD_DEADLINE_EXTRA_MS;
    o.log.info({ signal, graceMs: o.graceMs }, 'shutting down: draining requests in flight');
    setTimeout(() => {
      o.log.error({ deadlineMs }, 'shutdown did not finish before its deadline: exiting');
      exit(1);
    }, deadlineMs);
    startWatchdog(deadlineMs + WATCHDOG_EXTRA_MS);

    let clean = true;
    await bounded(o.drain(o.graceMs), o.graceMs + STEP_TIMEOUT_MS).catch((error) => {
      clean = false;
      o.log.warn({ err: error }, 'draining requests failed');
    });
    for (const step of o.steps) {
      await bounded(step.run(), STEP_TIMEOUT_MS).catch((error) => {
        clean = false;
        o.log.warn({ err: error, step: step.name }, 'shutdown step failed');
      });
    }
    o.log.info({ ms: Date.now() - started, clean }, 'stopped');
    if (o.flushLogs) await bounded(o.flushLogs(), STEP_TIMEOUT_MS).catch(() => undefined);
    exit(clean ? 0 : 1);
  }

  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no end within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A thread of its own that kills the process after `ms`: it runs even when the main thread is stuck
 * in a synchronous loop (a log write that never returns), where no timer of the main thread fires.
 * unref'd, so it never delays an exit that happens by itself.
 */
function startWatchdog(ms: number) {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`,
    { eval: true, workerData: { pid: process.pid, ms } },
  );
  worker.unref();
  worker.on('error', () => undefined);
}

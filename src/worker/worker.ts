import type { Clock } from '../lib/clock.ts';

/**
 * The one background poller of airgift: the job loop, with one handler per job type (gift card
 * fulfilment steps, top-up completion, webhook deliveries, the outbox's messages, the live catalogue
 * sync, the request log's retention: services.ts lists them). The record of what is pending is always the database (a
 * `next_check_at` column), never a timer: a restart loses nothing, and `runDue()` (what the loop calls,
 * and what tests call directly after moving the clock) picks up whatever is due by the injected clock.
 *
 * Each handler says how often its jobs are looked for; the loop ticks at the shortest interval and
 * runs a handler every `round(its interval / tick)` ticks. A handler that `drains` runs again at once
 * while its runs take full batches (a backlog goes at the rate its jobs go, not one batch per
 * interval), the others still at their intervals meanwhile. One run at a time; a job that throws is
 * reported and does not hold back the others; the handler's `failed` decides when it is tried again.
 * The handlers' `due` leases the rows it returns (lease-repository.ts), so several servers share the
 * work; `stop()` lets the job under way finish and gives the rest of the batch back.
 *
 * @example
 * const worker = createWorker({ clock, jobs: [giftcardFulfilmentJob(orders, 1000), topupCompletionJob(topups, 1000)] });
 * worker.start((error, job) => log.error({ err: error, ...job }, 'background job failed'));
 * await worker.runDue(); // tests: every job due now
 * await worker.stop();
 */
export interface Job {
  id: number;
}

export interface JobHandler<J extends Job = Job> {
  /** The job type, in error reports: 'giftcard-fulfilment'. */
  readonly name: string;
  /** How often its due jobs are looked for, in ms. */
  readonly intervalMs: number;
  /** The jobs due at `now`, oldest first, at most `limit`. */
  due(now: Date, limit: number): Promise<J[]>;
  /** How many of its jobs run at once (default 1); jobs that wait on the network set more. */
  readonly concurrency?: number;
  /** How many jobs one run takes at most (default 100). */
  readonly batchSize?: number;
  /**
   * Asked after a run that took a full batch: true runs the handler again at once instead of at its
   * next interval (the outbox drains a burst's messages so, while the order path is not busy).
   */
  drains?(): boolean;
  /** Does one job; throws when it failed. */
  run(job: J): Promise<void>;
  /** After `run` threw: when the job is tried again (without it: at the next run). */
  failed?(job: J): Promise<void>;
  /**
   * Ends the lease `due` took on the jobs (lease-repository.ts): after each job, and for the jobs of a
   * batch left unrun when the worker stops, so another server takes them at once.
   */
  release?(jobs: J[]): Promise<void>;
}

export type JobErrorReporter = (error: unknown, job: { name: string; id: number | null }) => void;

const BATCH = 100;

export function createWorker(deps: { clock: Clock; jobs: JobHandler[] }) {
  const { clock, jobs } = deps;
  const tickMs = Math.max(1, Math.min(...jobs.map((j) => j.intervalMs)));
  const everyTicks = new Map(jobs.map((j) => [j, Math.max(1, Math.round(j.intervalMs / tickMs))]));
  let timer: NodeJS.Timeout | null = null;
  let ticks = 0;
  // runs are queued one behind the other: never two at once
  let queue: Promise<unknown> = Promise.resolve();
  let pending = 0;
  let report: JobErrorReporter = () => {};
  let stopping = false;

  /** When each handler's last run began (performance.now()): the others' turns while one drains. */
  const lastRunAt = new Map<JobHandler, number>();

  /** One run of each of `handlers`; `full`: those whose run took a full batch and that drain. */
  async function runJobs(
    handlers: JobHandler[],
    onError: JobErrorReporter,
  ): Promise<{ count: number; full: JobHandler[] }> {
    let count = 0;
    const full: JobHandler[] = [];
    for (const handler of handlers) {
      if (stopping) break;
      lastRunAt.set(handler, performance.now());
      const limit = handler.batchSize ?? BATCH;
      const due = await handler.due(clock.now(), limit);
      count += due.length;
      let next = 0;
      // `concurrency` lanes take the batch's jobs in order; each stops taking when the worker stops
      const lane = async () => {
        while (next < due.length && !stopping) {
          const job = due[next++];
          await runOne(handler, job, onError);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, handler.concurrency ?? 1) }, lane));
      if (next < due.length) await handler.release?.(due.slice(next));
      if (due.length >= limit && !stopping && handler.drains?.()) full.push(handler);
    }
    return { count, full };
  }

  /**
   * Runs `first`, then again at once the handlers whose run was full and that drain, with every
   * other handler whose interval has passed since its last run (none waits on another's backlog),
   * until no run is full. How many jobs it looked at.
   */
  async function runDraining(first: JobHandler[], onError: JobErrorReporter): Promise<number> {
    let count = 0;
    let handlers = first;
    while (handlers.length > 0) {
      const run = await runJobs(handlers, onError);
      count += run.count;
      if (run.full.length === 0) break;
      const now = performance.now();
      handlers = jobs.filter((j) => run.full.includes(j) || now - (lastRunAt.get(j) ?? 0) >= j.intervalMs);
    }
    return count;
  }

  async function runOne(handler: JobHandler, job: Job, onError: JobErrorReporter) {
    try {
      await handler.run(job);
    } catch (error) {
      await handler.failed?.(job);
      onError(error, { name: handler.name, id: job.id });
    } finally {
      await handler.release?.([job]);
    }
  }

  function exclusive(run: () => Promise<number>): Promise<number> {
    pending += 1;
    const result = queue.then(run).finally(() => {
      pending -= 1;
    });
    queue = result.catch(() => {});
    return result;
  }

  function tick() {
    if (pending > 0) return; // a run is under way (or waiting): the next tick tries again
    ticks += 1;
    const handlers = jobs.filter((j) => ticks % (everyTicks.get(j) ?? 1) === 0);
    exclusive(() => runDraining(handlers, report)).catch((error) =>
      report(error, { name: 'worker', id: null }),
    );
  }

  return {
    /**
     * Runs every job type's due jobs now (a batch each, more of those that drain); returns how many
     * jobs it looked at. A failed job goes to `onError`; without one, the first failure is thrown once
     * every due job has been tried.
     */
    async runDue(onError?: JobErrorReporter): Promise<number> {
      const failures: unknown[] = [];
      const count = await exclusive(() => runDraining(jobs, onError ?? ((error) => failures.push(error))));
      if (failures.length > 0) throw failures[0];
      return count;
    },

    /** Starts the in-process loop (unref'd: it never keeps the process alive); `onError` hears of failures. */
    start(onError?: JobErrorReporter) {
      if (onError) report = onError;
      timer ??= setInterval(tick, tickMs);
      timer.unref();
    },

    /** Started and not stopped: what readiness (`/ready`) asks. */
    isRunning() {
      return timer !== null;
    },

    /** Stops the loop and waits for the job under way; the rest of its batch is given back. */
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await queue;
      // stopped: a later runDue() (tests) or start() runs in full again
      stopping = false;
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;

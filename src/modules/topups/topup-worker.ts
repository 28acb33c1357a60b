import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { sandboxOutcome } from './sandbox-simulator.ts';
import type { TopupStates } from './topup-states.ts';
import type { TopupRow, TopupsRepository } from './topups-repository.ts';

/**
 * Finishes deferred top-ups. The record of what is pending is the database (`status = 'PROCESSING'`
 * with `next_check_at`), never a timer: a restart loses nothing, and `runDue()` (what the poller calls
 * every interval, and what tests call directly) picks up whatever is due by the injected clock.
 */
export function createTopupWorker(deps: {
  db: Kysely<Database>;
  clock: Clock;
  repo: TopupsRepository;
  states: TopupStates;
  sandboxResult: (row: TopupRow) => {
    operatorTransactionId: string;
    pinDetail: Record<string, string | null> | null;
  };
}) {
  const { db, clock, repo, states } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  /** The digits the sandbox simulator reads an outcome from (see sandbox-simulator.ts). */
  function subscriberOf(row: TopupRow): string {
    return (row.recipient_phone ?? row.recipient_email?.split('@')[0] ?? '').replace(/\D/g, '');
  }

  async function finish(row: TopupRow) {
    if (row.environment !== 'sandbox') return; // live top-ups are never accepted without a provider
    const outcome = sandboxOutcome(subscriberOf(row));
    await db.transaction().execute(async (trx) => {
      if (outcome.kind === 'deferred' && outcome.final === 'REFUNDED') {
        await states.refund(trx, row, 'not processed by the operator (sandbox test number)');
      } else {
        await states.succeed(trx, row, deps.sandboxResult(row));
      }
    });
  }

  /** Finishes every top-up due now; returns how many it looked at. One run at a time. */
  async function runDue(limit = 100): Promise<number> {
    if (running) return running;
    running = (async () => {
      const due = await repo.due(clock.now(), limit);
      // one failing top-up must not hold back the others; it stays due and is retried next run
      const failures: unknown[] = [];
      for (const row of due) await finish(row).catch((error) => failures.push(error));
      if (failures.length > 0) throw failures[0];
      return due.length;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  /** Starts the in-process poller (unref'd: it never keeps the process alive). */
  function start(intervalMs: number, onError: (error: unknown) => void) {
    if (timer) return;
    timer = setInterval(() => {
      runDue().catch(onError);
    }, intervalMs);
    timer.unref();
  }

  async function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  }

  /** Started and not stopped: what readiness (`/ready`) asks. */
  const isRunning = () => timer !== null;

  return { runDue, start, stop, isRunning };
}

export type TopupWorker = ReturnType<typeof createTopupWorker>;

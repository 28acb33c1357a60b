import type { TopupService } from '../modules/topups/index.ts';
import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/**
 * Top-up completion: every PROCESSING top-up whose `next_check_at` has come, leased to this server
 * (lease-repository.ts), is put to its provider again (`TopupService.complete`). A failed one stays due
 * and is tried at the next run. The state change is conditional (`WHERE status = 'PROCESSING'`), so a
 * top-up taken over after an expired lease is still moved once.
 */
export function topupCompletionJob(orders: TopupService, leases: Leases, intervalMs: number): JobHandler {
  return {
    name: 'topup-completion',
    intervalMs,
    // only the id: the step reads the row again, locked (and its PIN voucher opened, by the repository)
    due: async (now, limit) =>
      (await leases.claim('topup_transactions', 'next_check_at', now, limit)).map((r) => ({ id: r.id })),
    run: (job) => orders.complete(job),
    release: (jobs) =>
      leases.release(
        'topup_transactions',
        jobs.map((j) => j.id),
      ),
  };
}

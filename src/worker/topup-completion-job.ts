import type { TopupRow, TopupService } from '../modules/topups/index.ts';
import type { JobHandler } from './worker.ts';

/**
 * Top-up completion: every PROCESSING top-up whose `next_check_at` has come is put to its provider
 * again (`TopupService.complete`). A failed one stays due and is tried at the next run.
 */
export function topupCompletionJob(orders: TopupService, intervalMs: number): JobHandler<TopupRow> {
  return {
    name: 'topup-completion',
    intervalMs,
    due: (now, limit) => orders.due(now, limit),
    run: (row) => orders.complete(row),
  };
}

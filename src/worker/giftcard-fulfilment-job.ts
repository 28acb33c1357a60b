import type { OrderService } from '../modules/giftcards/index.ts';
import type { JobHandler } from './worker.ts';

/**
 * Gift card fulfilment: the next step of every order whose `next_check_at` has come
 * (`OrderService.stepIfDue`). A step that throws is tried again `rescueAfterMs` later, not at every
 * run, which would only repeat the error.
 */
export function giftcardFulfilmentJob(orders: OrderService, intervalMs: number): JobHandler {
  return {
    name: 'giftcard-fulfilment',
    intervalMs,
    due: (now, limit) => orders.due(now, limit),
    run: (job) => orders.stepIfDue(job.id),
    failed: (job) => orders.retryLater(job.id),
  };
}

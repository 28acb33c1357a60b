import type { OrderService } from '../modules/giftcards/index.ts';
import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/**
 * Gift card fulfilment: the next step of every order whose `next_check_at` has come
 * (`OrderService.stepIfDue`), on orders leased to this server (lease-repository.ts). A step that
 * throws is tried again `rescueAfterMs` later, not at every run, which would only repeat the error.
 * The step itself runs on the locked row and re-checks that it is due, so even a job whose lease ran
 * out while it was running (another server took it over) is stepped once.
 */
export function giftcardFulfilmentJob(orders: OrderService, leases: Leases, intervalMs: number): JobHandler {
  return {
    name: 'giftcard-fulfilment',
    intervalMs,
    due: async (now, limit) =>
      (await leases.claim('giftcard_transactions', 'next_check_at', now, limit)).map((r) => ({ id: r.id })),
    run: (job) => orders.stepIfDue(job.id),
    failed: (job) => orders.retryLater(job.id),
    release: (jobs) =>
      leases.release(
        'giftcard_transactions',
        jobs.map((j) => j.id),
      ),
  };
}

import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/** What the worker asks of a product's orders (the one order path: modules/orders/order-path.ts). */
export interface OrderSteps {
  /** The next step of an order whose `next_check_at` has come, on its locked row. */
  stepIfDue(id: number): Promise<void>;
  /** After a step that threw: when to look again (gift cards 60 s later; top-ups at the next run). */
  retryLater(id: number): Promise<void>;
}

/**
 * The next step of every order of one product whose `next_check_at` has come, on orders leased to
 * this server (lease-repository.ts); the same job for both products. The step runs on the locked
 * row and re-checks that it is due, so even a job whose lease ran out while it was running (another
 * server took it over) is stepped once; a step that throws is reported, and the product says when
 * it is tried again (`retryLater`).
 *
 * @example
 * orderStepJob('giftcard-fulfilment', 'giftcard_transactions', giftcards.orders, leases, 1000)
 */
export function orderStepJob(
  name: string,
  table: 'giftcard_transactions' | 'topup_transactions',
  orders: OrderSteps,
  leases: Leases,
  intervalMs: number,
): JobHandler {
  return {
    name,
    intervalMs,
    // only the id: the step reads the row again, locked (a top-up's PIN voucher opened by its repository)
    due: async (now, limit) =>
      (await leases.claim(table, 'next_check_at', now, limit)).map((r) => ({ id: r.id })),
    run: (job) => orders.stepIfDue(job.id),
    failed: (job) => orders.retryLater(job.id),
    release: (jobs) =>
      leases.release(
        table,
        jobs.map((j) => j.id),
      ),
  };
}

/** Gift card fulfilment (`FULFILMENT_POLL_MS`): PENDING, PROCESSING and FAILED orders move on. */
export const giftcardFulfilmentJob = (orders: OrderSteps, leases: Leases, intervalMs: number) =>
  orderStepJob('giftcard-fulfilment', 'giftcard_transactions', orders, leases, intervalMs);

/** Top-up completion (`TOPUP_WORKER_INTERVAL_MS`): PROCESSING top-ups are put to their provider again. */
export const topupCompletionJob = (orders: OrderSteps, leases: Leases, intervalMs: number) =>
  orderStepJob('topup-completion', 'topup_transactions', orders, leases, intervalMs);

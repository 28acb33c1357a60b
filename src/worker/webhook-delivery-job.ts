import type { Webhooks } from '../modules/webhooks/index.ts';
import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/**
 * Webhook deliveries: one attempt of every pending delivery whose `next_attempt_at` has come, on
 * deliveries leased to this server (lease-repository.ts). The attempt writes its own outcome and next
 * attempt (modules/webhooks/webhook-delivery.ts); one that throws (the database went away) stays due.
 * While the order path is quiet (`busy` false), a full batch is followed at once by the next
 * (`drains`): a sale's thousands of events reach their endpoints as fast as those answer, not 32 a
 * second; during a burst, a batch per interval, as before.
 */
export function webhookDeliveryJob(
  webhooks: Webhooks,
  leases: Leases,
  intervalMs: number,
  busy: () => boolean = () => false,
): JobHandler {
  return {
    name: 'webhook-delivery',
    intervalMs,
    // attempts wait on the network (up to 10 s each): several at once, and a batch done well within
    // its lease (32 / 16 x 10 s = 20 s < WORKER_LEASE_SECONDS)
    concurrency: 16,
    batchSize: 32,
    due: async (now, limit) =>
      (await leases.claim('webhook_deliveries', 'next_attempt_at', now, limit)).map((r) => ({ id: r.id })),
    drains: () => !busy(),
    run: (job) => webhooks.delivery.attempt(job.id),
    release: (jobs) =>
      leases.release(
        'webhook_deliveries',
        jobs.map((j) => j.id),
      ),
  };
}

import type { MessageRow, Messaging } from '../modules/messaging/index.ts';
import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/**
 * The outbox (modules/messaging): one attempt of every queued message whose `next_attempt_at` has
 * come, on messages leased to this server in batches (a burst of thousands goes out over the drivers'
 * pooled connections, many at once). The job carries the leased row, so a send costs one statement
 * (the outcome) besides the claim; a send that throws (the database went away while recording) stays
 * leased until its lease passes, then is taken again.
 */
export function messageDeliveryJob(
  messaging: Messaging,
  leases: Leases,
  intervalMs: number,
): JobHandler<MessageRow & { id: number }> {
  const recorded = new WeakSet<MessageRow>();
  return {
    name: 'message-delivery',
    intervalMs,
    // SMTP and SMPP answers take a few ms to a few s: many at once over the pooled connections; a
    // batch of 400 at 32 at once is done well within a 30 s lease unless the servers are slow, and a
    // message whose lease passed mid-send is recorded once (the conditional UPDATE)
    concurrency: 32,
    batchSize: 400,
    due: (now, limit) => leases.claim('messages', 'next_attempt_at', now, limit),
    run: async (message) => {
      if (await messaging.sender.attempt(message)) recorded.add(message);
    },
    // a recorded attempt ended its lease in the same UPDATE (shared by the outcomes of one turn)
    release: (messages) =>
      leases.release(
        'messages',
        messages.filter((m) => !recorded.has(m)).map((m) => m.id),
      ),
  };
}

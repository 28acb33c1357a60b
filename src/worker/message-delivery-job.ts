import type { MessageRow, Messaging } from '../modules/messaging/index.ts';
import type { Leases } from './lease-repository.ts';
import type { JobHandler } from './worker.ts';

/**
 * While this many orders (of either product) wait for or run in their transactions, the order path is
 * busy: a burst. A quiet installation's few orders at a time never hold the outbox back.
 */
export const BUSY_ORDERS = 16;
/** The longest a due message waits for a busy order path. */
export const YIELD_MAX_MS = 15_000;

/**
 * The outbox (modules/messaging): one attempt of every queued message whose `next_attempt_at` has
 * come, on messages leased to this server in batches (a burst of thousands goes out over the drivers'
 * pooled connections, many at once). The job carries the leased row, so a send costs one statement
 * (the outcome) besides the claim; a send that throws (the database went away while recording) stays
 * leased until its lease passes, then is taken again.
 *
 * The outbox yields to the order path: a burst of orders with recipients makes a burst of messages,
 * and rendering and sending them on the same cores as the orders slowed the orders by half (even
 * 25 messages a second cost the orders a tenth). So while the order path is busy (`busy`:
 * `BUSY_ORDERS` or more orders in flight in this server when a run starts), a run takes only the
 * messages that have been due for `YIELD_MAX_MS` or longer: a message is held back at most that
 * long, and once the burst is over the outbox drains at full speed, batch after batch (`drains`).
 * Under a load that never lets up, every message goes out `YIELD_MAX_MS` late, a batch per interval.
 */
export function messageDeliveryJob(
  messaging: Messaging,
  leases: Leases,
  intervalMs: number,
  busy: () => boolean = () => false,
): JobHandler<MessageRow & { id: number }> {
  const recorded = new WeakSet<MessageRow>();
  const claim = (now: Date, limit: number, dueBy = now) =>
    leases.claim('messages', 'next_attempt_at', now, limit, dueBy);
  return {
    name: 'message-delivery',
    intervalMs,
    // SMTP and SMPP answers take a few ms to a few s: many at once over the pooled connections; a
    // batch of 400 at 32 at once is done well within a 30 s lease unless the servers are slow, and a
    // message whose lease passed mid-send is recorded once (the conditional UPDATE)
    concurrency: 32,
    batchSize: 400,
    due: (now, limit) =>
      busy() ? claim(now, limit, new Date(now.getTime() - YIELD_MAX_MS)) : claim(now, limit),
    // a full batch is taken again at once (not a second later) while the order path is quiet: a
    // burst's messages go out at the rate they are sent, not 400 a second
    drains: () => !busy(),
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

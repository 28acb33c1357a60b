import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import type { Principal } from '../../auth/index.ts';
import type { Messaging } from '../../messaging/index.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import { deliveryView } from './delivery-view.ts';

/**
 * A gift card order's deliveries: its messages and the reveals of its codes (GET), and a resend
 * (POST): optionally to a corrected e-mail or phone, always with a new link (the old one dies), at
 * most one per RESEND_INTERVAL_MS per order.
 */
export const RESEND_INTERVAL_MS = 30_000;

export interface ResendInput {
  recipientEmail?: string;
  /** Already checked and normalised (E.164) by the caller's rules (order-request.ts). */
  recipientPhone?: { e164: string; country: string };
}

export function createDeliveryService(deps: {
  db: Kysely<Database>;
  repository: DeliveryRepository;
  messaging: Messaging;
  clock: Clock;
  /** The order row of the principal's account and environment, or RESOURCE_NOT_FOUND. */
  requireOrder: (principal: Principal, id: string | number) => Promise<{ id: number; status: string }>;
  correctRecipient: (trx: Kysely<Database>, id: number, input: ResendInput) => Promise<void>;
  /** Throws INACTIVE_ACCOUNT for an account that may not send (a resend costs a message). */
  requireActive: (accountId: number) => Promise<void>;
}) {
  const { repository, messaging, clock } = deps;

  async function list(principal: Principal, id: string | number) {
    const order = await deps.requireOrder(principal, id);
    const [messages, reveals] = await Promise.all([
      messaging.repository.ofTransaction(order.id),
      repository.reveals(order.id),
    ]);
    return {
      transactionId: order.id,
      deliveries: messages.map(deliveryView),
      reveals: reveals.map((r) => ({ revealedAt: formatDateTime(r.at), ipAddress: r.ip })),
    };
  }

  return {
    list,

    /** Sends the recipient's message again with a new link; the older links stop working. */
    async resend(principal: Principal, id: string | number, input: ResendInput) {
      const order = await deps.requireOrder(principal, id);
      await deps.requireActive(principal.accountId);
      if (order.status !== 'SUCCESSFUL') {
        throw new AppError(
          'UNPROCCESSABLE_ENTITY',
          `Transaction ${order.id} is ${order.status}; only a SUCCESSFUL order is delivered`,
        );
      }
      const now = clock.now();
      await deps.db.transaction().execute(async (trx) => {
        // the order's row lock orders concurrent resends: the second sees the first's message; the
        // first message (the order's own) does not count, so a typo noticed at once can be fixed
        await repository.lockOrder(trx, order.id);
        const last = (await messaging.repository.ofTransaction(order.id, trx))
          .filter((m) => m.data?.resend === true)
          .at(-1);
        if (last && now.getTime() - last.created_at.getTime() < RESEND_INTERVAL_MS) {
          const wait = Math.ceil((RESEND_INTERVAL_MS - (now.getTime() - last.created_at.getTime())) / 1000);
          throw new AppError(
            'DELIVERY_RESEND_TOO_SOON',
            `The last message to this recipient went ${Math.floor((now.getTime() - last.created_at.getTime()) / 1000)} s ago; resend in ${wait} s`,
          );
        }
        if (input.recipientEmail !== undefined || input.recipientPhone !== undefined) {
          await deps.correctRecipient(trx, order.id, input);
        }
        const row = await repository.recipientOf(trx, order.id);
        if (!row.recipient_email && !row.recipient_phone) {
          throw new AppError(
            'UNPROCCESSABLE_ENTITY',
            `Transaction ${order.id} has no recipient: give recipientEmail or recipientPhoneDetails`,
          );
        }
        const linkId = await repository.replaceLink(trx, order.id, now);
        await messaging.repository.insert(
          [
            {
              kind: row.recipient_email ? 'giftcard.recipient' : 'giftcard.link_sms',
              channel: row.recipient_email ? 'email' : 'sms',
              recipient: row.recipient_email ?? (row.recipient_phone as string),
              account_id: row.account_id,
              environment: row.environment,
              transaction_id: order.id,
              link_id: linkId,
              data: JSON.stringify({ resend: true }),
            },
          ],
          now,
          trx,
        );
      });
      return list(principal, order.id);
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;

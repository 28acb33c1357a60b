import { formatDateTime } from '../../../lib/time-format.ts';
import type { MessageRow } from '../../messaging/index.ts';

/**
 * A message of a gift card order as the deliveries endpoint shows it. `unsent` (no SMTP_URL / SMS_URL
 * configured) is shown `failed`, its lastError saying so: it will not go by itself.
 */
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'failed' | 'captured';
export type DeliveryKind = 'giftcard_email' | 'link_sms' | 'code_sms';

const KINDS: Record<string, DeliveryKind> = {
  'giftcard.recipient': 'giftcard_email',
  'giftcard.link_sms': 'link_sms',
  'giftcard.code_sms': 'code_sms',
};

export function deliveryView(m: MessageRow) {
  return {
    deliveryId: m.id,
    transactionId: m.transaction_id ?? 0,
    kind: KINDS[m.kind] ?? 'giftcard_email',
    channel: m.channel,
    address: m.recipient,
    status: (m.status === 'unsent' ? 'failed' : m.status) as DeliveryStatus,
    attempts: m.attempts,
    lastError: m.last_error,
    createdAt: formatDateTime(m.created_at),
    updatedAt: formatDateTime(m.updated_at),
    sentAt: m.sent_at ? formatDateTime(m.sent_at) : null,
  };
}

export type DeliveryView = ReturnType<typeof deliveryView>;

import { formatDateTime } from '../../lib/time-format.ts';
import type { MessageRow, MessagesRepository } from './messages-repository.ts';
import type { OutboxSender, RenderedSms } from './outbox-sender.ts';
import { NOT_SENT } from './outbox-sender.ts';
import type { RenderedEmail } from './templates/layout.ts';

/**
 * The console's Outbox: the newest messages, each rendered as its recipient sees it (secrets such as
 * links and one-time codes masked: an operator sees what went, not the key to a recipient's card),
 * with what became of it in words.
 */
const STATUS_TEXT: Record<string, (m: MessageRow) => string> = {
  queued: (m) => (m.attempts === 0 ? 'queued' : `queued: attempt ${m.attempts + 1} after "${m.last_error}"`),
  sent: () => 'sent',
  delivered: () => 'delivered',
  failed: (m) => `failed: ${m.last_error ?? 'unknown'}`,
  captured: () => 'captured (sandbox: never sent)',
  unsent: (m) => m.last_error ?? NOT_SENT[m.channel],
};

export async function outboxPage(
  repository: MessagesRepository,
  sender: OutboxSender,
  page: { limit: number; before?: number },
) {
  const rows = await repository.recent(page.limit, page.before);
  const items = [];
  for (const m of rows) {
    const rendered = await sender.preview(m);
    const email = m.channel === 'email' ? (rendered as RenderedEmail | null) : null;
    items.push({
      messageId: m.id,
      kind: m.kind,
      channel: m.channel,
      to: m.recipient,
      environment: m.environment,
      transactionId: m.transaction_id,
      status: m.status,
      statusText: STATUS_TEXT[m.status]?.(m) ?? m.status,
      attempts: m.attempts,
      createdAt: formatDateTime(m.created_at),
      sentAt: m.sent_at ? formatDateTime(m.sent_at) : null,
      subject: email?.subject ?? null,
      text: rendered ? (email?.text ?? (rendered as RenderedSms).text) : null,
      html: email?.html ?? null,
    });
  }
  return { items, next: rows.length === page.limit ? rows[rows.length - 1].id : null };
}

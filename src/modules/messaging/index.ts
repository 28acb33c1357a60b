/**
 * Messaging: the outbox of e-mails and text messages (migration 0020), its drivers (SMTP, SMPP,
 * Twilio, the sandbox's capture) and the one e-mail layout. Other modules register the kinds of
 * message they send (a template and what happens when one fails for good) and queue rows; the worker
 * sends them (worker/message-delivery-job.ts). README.md has the glossary and the state diagram.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { messagesRepository } from './messages-repository.ts';
import { createOutboxSender, type MessageKind } from './outbox-sender.ts';
import { outboxPage } from './outbox-view.ts';
import { captureTransport } from './transports/capture-transport.ts';
import { emailDriverFor, smsDriverFor } from './transports/drivers.ts';
import { addressOf } from './transports/smtp-transport.ts';
import type { OutgoingEmail, OutgoingSms, Transport } from './transports/transport.ts';

export interface MessagingSettings {
  smtpUrl?: string;
  smtpFrom: string;
  smtpPoolSize: number;
  dkim?: { domain: string; selector: string; keyFile: string };
  smsUrl?: string;
  smsFrom: string;
  /** Extra CA certificates (PEM) for the mail server's and the SMS API's TLS. */
  ca?: string;
}

/**
 * @example
 * const messaging = createMessaging({ db, clock, settings });
 * messaging.register('web.invitation', invitationKind);
 * await messaging.repository.insert([{ kind: 'web.invitation', channel: 'email', recipient }], now, trx);
 */
export function createMessaging(deps: {
  db: Kysely<Database>;
  clock: Clock;
  settings: MessagingSettings;
  onOutcome?: Parameters<typeof createOutboxSender>[0]['onOutcome'];
}) {
  const { settings } = deps;
  const repository = messagesRepository(deps.db);
  const kinds = new Map<string, MessageKind>();
  const email: Transport<OutgoingEmail> | null = settings.smtpUrl
    ? emailDriverFor(settings.smtpUrl, {
        from: settings.smtpFrom,
        poolSize: settings.smtpPoolSize,
        dkim: settings.dkim,
        ca: settings.ca,
      })
    : null;
  const sms: Transport<OutgoingSms> | null = settings.smsUrl
    ? smsDriverFor(settings.smsUrl, { from: settings.smsFrom, ca: settings.ca })
    : null;
  let outcomeListener = deps.onOutcome;
  const sender = createOutboxSender({
    repository,
    clock: deps.clock,
    kinds,
    transports: { email, sms, sandbox: captureTransport() },
    messageIdDomain: addressOf(settings.smtpFrom).split('@')[1] ?? 'localhost',
    onOutcome: (m, s, e) => outcomeListener?.(m, s, e),
  });
  // receipts go to the outbox; the driver acknowledges each once it is written
  sms?.onReceipt?.((receipt) => sender.receipt(receipt));
  return {
    repository,
    sender,
    /** Which channels really send (false: kept as unsent). */
    configured: { email: email !== null, sms: sms !== null },
    /** The console's Outbox: newest first, rendered with secrets masked. */
    outbox: (page: { limit: number; before?: number }) => outboxPage(repository, sender, page),
    register(kind: string, template: MessageKind) {
      kinds.set(kind, template);
    },
    onOutcome(listener: NonNullable<typeof deps.onOutcome>) {
      outcomeListener = listener;
    },
    /** Closes the drivers' connections (shutdown). */
    async close() {
      await Promise.all([email?.close(), sms?.close()]);
    },
  };
}

export type Messaging = ReturnType<typeof createMessaging>;
export type { MessageRow, NewMessage } from './messages-repository.ts';
export type { MessageChannel, MessageStatus, MessagingTables } from './messaging-tables.ts';
export { withMessagingTables } from './messaging-tables.ts';
export { MessageGone, type MessageKind, messageIdOf, NOT_SENT, type RenderedSms } from './outbox-sender.ts';
export {
  type Brand,
  DEFAULT_BRAND,
  escapeHtml,
  type RenderedEmail,
  renderEmail,
} from './templates/layout.ts';
export { SANDBOX_BOUNCING_DOMAIN, SANDBOX_FAILING_NUMBER_SUFFIX } from './transports/capture-transport.ts';

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MessageRow, MessagesRepository } from './messages-repository.ts';
import type { MessageStatus } from './messaging-tables.ts';
import { nextAttemptAt } from './retry-schedule.ts';
import type { RenderedEmail } from './templates/layout.ts';
import type {
  DeliveryReceipt,
  Outgoing,
  OutgoingEmail,
  OutgoingSms,
  SendOutcome,
  Transport,
} from './transports/transport.ts';

/**
 * One attempt of one queued message (the worker's messaging job): render it (its kind's template, from
 * the current state of what it is about), pick its transport (the sandbox's capture driver for sandbox
 * messages, SMTP or the SMS driver for the rest; none configured: kept as `unsent`), send it, and
 * record the outcome (sent; temporary refusal: queued again per retry-schedule.ts; permanent refusal,
 * or a day of temporary ones: failed). No transaction is open while the message is on the network: the
 * row was leased and committed by the claim, and the outcome is written after.
 */
export interface RenderedSms {
  text: string;
}

export interface MessageKind {
  /** The message as its recipient sees it; `preview` masks secrets (the console's outbox). */
  render(message: MessageRow, options?: { preview?: boolean }): Promise<RenderedEmail | RenderedSms>;
  /** Runs in the transaction that records the message failed for good (the smsFee refund). */
  failedForGood?(trx: Kysely<Database>, message: MessageRow, error: string): Promise<void>;
  /** The e-mail's From display name (the account's), when not the default. */
  fromName?(message: MessageRow): Promise<string | null>;
}

/** What a message's template cannot render any more (its link revoked, its order gone): it fails. */
export class MessageGone extends Error {}

export const NOT_SENT = {
  email: 'not sent: no SMTP server configured',
  sms: 'not sent: no SMS service configured',
} as const;

export interface OutboxSenderDeps {
  repository: MessagesRepository;
  clock: Clock;
  kinds: Map<string, MessageKind>;
  transports: {
    email: Transport<OutgoingEmail> | null;
    sms: Transport<OutgoingSms> | null;
    sandbox: Transport;
  };
  /** The domain of the Message-IDs (SMTP_FROM's). */
  messageIdDomain: string;
  random?: () => number;
  /** Hears of every recorded outcome (logs, metrics); never the message's text. */
  onOutcome?: (message: MessageRow, status: MessageStatus, error: string | null) => void;
}

/** The Message-ID of a message: the same at every attempt, so a resend after a crash is recognisable. */
export function messageIdOf(message: Pick<MessageRow, 'id' | 'created_at'>, domain: string): string {
  return `<airgift.${message.id}.${message.created_at.getTime().toString(36)}@${domain}>`;
}

export function createOutboxSender(deps: OutboxSenderDeps) {
  const { repository, clock } = deps;

  /** Writes the attempt's outcome; true when written (its lease ended with it, messages-repository.ts). */
  async function record(message: MessageRow, outcome: SendOutcome | { unsent: string }): Promise<boolean> {
    const at = clock.now();
    let status: MessageStatus;
    let next: Date | null = null;
    let error: string | null = null;
    let providerId: string | null = null;
    if ('unsent' in outcome) {
      status = 'unsent';
      error = outcome.unsent;
    } else if (outcome.ok) {
      status = message.environment === 'sandbox' ? 'captured' : 'sent';
      providerId = outcome.providerId;
    } else {
      error = outcome.error;
      next = outcome.permanent
        ? null
        : nextAttemptAt(message.attempts + 1, message.send_after, at, deps.random);
      status = next ? 'queued' : 'failed';
      if (!outcome.permanent && !next) error = `temporary refusals for a day; last: ${outcome.error}`;
    }
    const kind = deps.kinds.get(message.kind);
    const finalFailure = status === 'failed' || status === 'unsent' ? error : null;
    const written = await repository.record(
      message,
      { status, nextAttemptAt: next, error, providerId, at },
      finalFailure && kind?.failedForGood
        ? (trx) => kind.failedForGood?.(trx, message, finalFailure) ?? Promise.resolve()
        : undefined,
    );
    if (written) deps.onOutcome?.(message, status, error);
    return written;
  }

  async function outgoing(message: MessageRow, kind: MessageKind): Promise<Outgoing> {
    const rendered = await kind.render(message);
    if (message.channel === 'sms') return { channel: 'sms', to: message.recipient, text: rendered.text };
    const email = rendered as RenderedEmail;
    return {
      channel: 'email',
      to: message.recipient,
      fromName: (await kind.fromName?.(message)) ?? null,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: messageIdOf(message, deps.messageIdDomain),
    };
  }

  return {
    /**
     * One attempt of the message as it was claimed (`message`: the leased row). True when its outcome
     * was recorded, which ends its lease too; false when there was nothing to record or another
     * server recorded it first (its lease is then for the caller to release).
     */
    async attempt(message: MessageRow): Promise<boolean> {
      if (message.status !== 'queued') return false;
      const kind = deps.kinds.get(message.kind);
      if (!kind) {
        return record(message, { ok: false, permanent: true, error: `no template for ${message.kind}` });
      }
      let out: Outgoing;
      try {
        out = await outgoing(message, kind);
      } catch (error) {
        if (!(error instanceof MessageGone)) throw error;
        return record(message, { ok: false, permanent: true, error: error.message });
      }
      const transport =
        message.environment === 'sandbox' ? deps.transports.sandbox : deps.transports[message.channel];
      if (!transport) return record(message, { unsent: NOT_SENT[message.channel] });
      const outcome = await (transport as Transport<Outgoing>).send(out);
      return record(message, outcome);
    },

    /**
     * A delivery receipt from the SMS driver: the message it names becomes delivered, or failed (a
     * failure for good: the kind's `failedForGood` runs in the same transaction, the smsFee refund).
     * A receipt for no waiting message (repeated, unknown) changes nothing.
     */
    async receipt(receipt: DeliveryReceipt): Promise<void> {
      const at = clock.now();
      const status = receipt.delivered ? 'delivered' : 'failed';
      const error = receipt.delivered ? null : `not delivered: the SMSC reported ${receipt.state}`;
      const written = await repository.receipt(
        receipt.providerId,
        { status, error, at },
        receipt.delivered
          ? undefined
          : async (trx, message) => {
              await deps.kinds.get(message.kind)?.failedForGood?.(trx, message, error ?? receipt.state);
            },
      );
      if (written) deps.onOutcome?.(written, status, error);
    },

    /** The message rendered as its recipient would see it, secrets masked (the console's outbox). */
    async preview(message: MessageRow): Promise<RenderedEmail | RenderedSms | null> {
      const kind = deps.kinds.get(message.kind);
      if (!kind) return null;
      try {
        return await kind.render(message, { preview: true });
      } catch (error) {
        if (error instanceof MessageGone) return null;
        throw error;
      }
    },
  };
}

export type OutboxSender = ReturnType<typeof createOutboxSender>;

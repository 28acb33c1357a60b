/**
 * The one shape every driver has (SMTP, SMPP, Twilio, the sandbox's capture, ...): give it a rendered
 * message, get back what became of it. A driver never throws for the far end's answer: it classifies
 * it. `permanent` means sending it again would be refused again (an SMTP 5xx, an invalid number);
 * anything else (an SMTP 4xx, SMPP throttling, a refused connection) is tried again later.
 *
 * @example
 * const outcome = await transport.send({ channel: 'email', to, from, subject, text, html, messageId });
 * if (!outcome.ok && outcome.permanent) // fail the message
 */
export interface OutgoingEmail {
  channel: 'email';
  to: string;
  /** The display name of the sender (the account's), shown with SMTP_FROM's address. */
  fromName: string | null;
  subject: string;
  text: string;
  html: string;
  /** Stable across attempts (`<id.created@domain>`), so a retry after a crash is recognisable. */
  messageId: string;
}

export interface OutgoingSms {
  channel: 'sms';
  /** E.164 (+15551234567). */
  to: string;
  text: string;
}

export type Outgoing = OutgoingEmail | OutgoingSms;

export type SendOutcome =
  | { ok: true; providerId: string | null }
  | { ok: false; permanent: boolean; error: string };

/**
 * What the far end reported later about a message it accepted (an SMPP delivery receipt): the id it
 * gave the message (or one part of it) and whether it reached the handset. Only final states are
 * reported; "en route" and "accepted" are not.
 */
export interface DeliveryReceipt {
  providerId: string;
  delivered: boolean;
  /** The far end's state, as it names it ("DELIVRD", "UNDELIV", "EXPIRED", ...), and its error code if any. */
  state: string;
}

export interface Transport<M extends Outgoing = Outgoing> {
  /** Shown in the outbox and the logs: 'smtp', 'smpp', 'twilio', 'capture'. */
  readonly name: string;
  send(message: M): Promise<SendOutcome>;
  /**
   * Hears the delivery receipts of a driver that gets them (SMPP). The driver acknowledges a receipt
   * only once the listener's promise resolves, so a receipt that could not be recorded (the database
   * away) is sent again by the far end.
   */
  onReceipt?(listener: (receipt: DeliveryReceipt) => Promise<void>): void;
  /** Closes pooled connections (shutdown). */
  close(): Promise<void>;
}

/** A refusal that is worth trying again. */
export const temporary = (error: string): SendOutcome => ({ ok: false, permanent: false, error });
/** A refusal that would be the same next time. */
export const permanent = (error: string): SendOutcome => ({ ok: false, permanent: true, error });

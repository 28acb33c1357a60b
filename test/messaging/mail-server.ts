import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback for the tests (nodemailer's smtp-server), keeping every message it
 * accepts, raw and parsed by mailparser. `refuse(code)` makes it answer RCPT TO with that code (451:
 * a temporary refusal, 550: a permanent one) until `refuse(null)`.
 */
export interface Received {
  raw: string;
  mail: ParsedMail;
  envelopeTo: string[];
  /** The session was encrypted (STARTTLS or implicit TLS). */
  secure: boolean;
}

export async function startMailServer(
  options: { starttls?: boolean; secure?: boolean; key?: string; cert?: string } = {},
) {
  const received: Received[] = [];
  const closedSessions = new Set<string>();
  let arrived = 0;
  let refusal: number | null = null;
  let holdMs = 0;
  /** Messages whose data arrived but whose sender went away before the 250 reply (not delivered). */
  const unacknowledged: Received[] = [];
  let refusedCount = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.starttls || options.secure ? [] : ['STARTTLS'],
    secure: options.secure ?? false,
    ...(options.key && options.cert ? { key: options.key, cert: options.cert } : {}),
    logger: false,
    // close() waits this long for senders to hang up (30 s by default): a server's pooled connection
    // stays open until it is stopped, and a test should not wait on it
    closeTimeout: 300,
    onRcptTo(_address, _session, callback) {
      if (refusal !== null) {
        refusedCount += 1;
        const error = new Error(refusal >= 500 ? 'No such user here' : 'Try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = refusal;
        callback(error);
        return;
      }
      callback();
    },
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const message = {
          raw,
          mail: await simpleParser(raw),
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          secure: Boolean(session.secure),
        };
        arrived += 1;
        if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
        // a sender that went away while we held the reply never learnt of the message: not delivered
        if ((session as unknown as { closed?: boolean }).closed || closedSessions.has(session.id)) {
          unacknowledged.push(message);
        } else {
          received.push(message);
        }
        callback();
      });
    },
  });
  // a client that gives up during the TLS handshake (one that does not trust the certificate) is no error here
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    unacknowledged,
    /** Messages whose data arrived, replied to or not yet. */
    get arrived() {
      return arrived;
    },
    /** Holds each 250 reply to DATA this long (a slow server: messages stay in flight). */
    hold(ms: number) {
      holdMs = ms;
    },
    refuse(code: number | null) {
      refusal = code;
    },
    get refused() {
      return refusedCount;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailServer = Awaited<ReturnType<typeof startMailServer>>;

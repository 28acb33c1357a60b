import { lazyPackage } from '../../../lib/lazy-package.ts';
import { smsParts } from './sms-parts.ts';
import {
  type DeliveryReceipt,
  type OutgoingSms,
  permanent,
  type SendOutcome,
  type Transport,
  temporary,
} from './transport.ts';

// biome-ignore lint/suspicious/noExplicitAny: the smpp package has no types
type Session = any;
const smpp = lazyPackage<{ connect(options: object): Session }>('smpp');

export interface SmppOptions {
  /** smpp://system_id:password@host:port (ssmpp:// for TLS). */
  url: string;
  /** source_addr: a sender id (alphanumeric, up to 11) or a number. */
  from: string;
  /** 'transceiver' (default) or 'transmitter'. */
  bind?: 'transceiver' | 'transmitter';
  enquireLinkMs?: number;
  /** How long a send waits for the session to be bound, and for a response. */
  timeoutMs?: number;
  /** Longest wait between reconnections. */
  maxBackoffMs?: number;
}

// SMPP 3.4 command_status values that will be the same next time (5.1.3): the number, the sender or
// the message is wrong. Everything else (throttling 0x58, queue full 0x14, system error 0x08, ...) is
// tried again.
const PERMANENT_STATUS = new Set([0x01, 0x0a, 0x0b, 0x33, 0x34, 0x40, 0x42, 0x43, 0x48, 0x49, 0x66]);

// A delivery receipt is a deliver_sm with esm_class bits 2-5 = 0001 (5.2.12). Its final state comes
// in the message_state TLV (5.3.2.35) or, from older SMSCs, in the text of Appendix B
// ("id:... stat:DELIVRD err:000 ..."); the states that are not final (ENROUTE, ACCEPTD, UNKNOWN) are
// not receipts of anything yet.
const RECEIPT = 0x04;
const FINAL_STATES: Record<number, string> = {
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  8: 'REJECTD',
};
const SYSTEM_ERROR = 0x08;

/** The delivery receipt a deliver_sm carries, or null (a message from a handset, a state not final). */
export function receiptOf(pdu: {
  esm_class?: number;
  receipted_message_id?: string;
  message_state?: number;
  short_message?: string | { message?: string | Buffer };
}): DeliveryReceipt | null {
  if (((pdu.esm_class ?? 0) & 0x3c) !== RECEIPT) return null;
  const body = pdu.short_message;
  const text = String(typeof body === 'object' && body !== null ? (body.message ?? '') : (body ?? ''));
  const field = (name: string) => new RegExp(`(?:^|\\s)${name}:(\\S*)`, 'i').exec(text)?.[1];
  const providerId = pdu.receipted_message_id || field('id');
  const state =
    pdu.message_state !== undefined ? FINAL_STATES[pdu.message_state] : field('stat')?.toUpperCase();
  if (!providerId || !state || !Object.values(FINAL_STATES).includes(state)) return null;
  const err = field('err');
  return {
    providerId,
    delivered: state === 'DELIVRD',
    state: err && !/^0+$/.test(err) ? `${state} err:${err}` : state,
  };
}

/**
 * SMS over SMPP 3.4 with the `smpp` package: one session, bound as a transceiver (or transmitter),
 * kept alive with enquire_link, answered when the SMSC asks (enquire_link, deliver_sm), and
 * reconnected with exponential backoff (1 s, 2 s, ... up to 60 s) whenever it drops. A message is one
 * submit_sm per part (sms-parts.ts: UDH concatenation for long texts); its outcome is the first
 * refusal's command_status, classified permanent or temporary. Every part asks for a delivery
 * receipt (registered_delivery); the final ones go to `onReceipt`'s listener.
 *
 * @example
 * const sms = smppTransport({ url: 'smpp://airgift:secret@smsc.example.com:2775', from: 'Gifts' });
 * await sms.send({ channel: 'sms', to: '+447700900123', text: 'Your code: 123456' });
 */
export function smppTransport(options: SmppOptions): Transport<OutgoingSms> {
  const url = new URL(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  let session: Session | null = null;
  let bound: Promise<Session> | null = null;
  let failures = 0;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let receiptListener: ((receipt: DeliveryReceipt) => Promise<void>) | null = null;

  function connect(): Promise<Session> {
    bound ??= new Promise<Session>((resolve, reject) => {
      const s = smpp().connect({
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: Number(url.port) || 2775,
        tls: url.protocol === 'ssmpp:',
        auto_enquire_link_period: options.enquireLinkMs ?? 30_000,
      });
      session = s;
      let settled = false;
      s.on('connect', () => {
        const command = options.bind === 'transmitter' ? 'bind_transmitter' : 'bind_transceiver';
        s[command](
          { system_id: decodeURIComponent(url.username), password: decodeURIComponent(url.password) },
          (pdu: { command_status: number }) => {
            settled = true;
            if (pdu.command_status === 0) {
              failures = 0;
              resolve(s);
            } else {
              reject(new Error(`SMPP bind refused (status 0x${pdu.command_status.toString(16)})`));
              s.close();
            }
          },
        );
      });
      // what the SMSC sends on its own: keep-alives and delivery receipts, each answered
      s.on('enquire_link', (pdu: Session) => s.send(pdu.response()));
      // a receipt is acknowledged once recorded; one that could not be is refused (system error), so
      // the SMSC delivers it again
      s.on('deliver_sm', (pdu: Session) => {
        const receipt = receiptOf(pdu);
        if (!receipt || !receiptListener) return s.send(pdu.response());
        receiptListener(receipt).then(
          () => s.send(pdu.response()),
          () => s.send(pdu.response({ command_status: SYSTEM_ERROR })),
        );
      });
      s.on('unbind', (pdu: Session) => {
        s.send(pdu.response());
        s.close();
      });
      s.on('error', (error: Error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      s.on('close', () => {
        if (session === s) {
          session = null;
          bound = null;
          if (!settled) {
            settled = true;
            reject(new Error('SMPP connection closed'));
          }
          scheduleReconnect();
        }
      });
    });
    // a failed bind is not left unhandled: each send awaits its own copy
    bound.catch(() => undefined);
    return bound;
  }

  // the session comes back by itself after a drop, waiting longer after each failure in a row
  function scheduleReconnect() {
    if (closed || reconnectTimer) return;
    failures += 1;
    const delay = Math.min(1000 * 2 ** (failures - 1), maxBackoff);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (!closed && !bound) connect().catch(() => undefined);
    }, delay);
    reconnectTimer.unref();
  }

  function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
      promise.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  }

  function submit(s: Session, fields: object): Promise<{ command_status: number; message_id?: string }> {
    return new Promise((resolve) => s.submit_sm(fields, resolve));
  }

  return {
    name: 'smpp',
    async send(message): Promise<SendOutcome> {
      let s: Session;
      try {
        s = await withTimeout(bound ?? connect(), 'SMPP bind');
      } catch (error) {
        return temporary(`SMSC unreachable: ${(error as Error).message}`);
      }
      const { dataCoding, parts } = smsParts(message.text);
      const ids: string[] = [];
      for (const part of parts) {
        let resp: { command_status: number; message_id?: string };
        try {
          resp = await withTimeout(
            submit(s, {
              source_addr: options.from,
              source_addr_ton: /^\+?\d+$/.test(options.from) ? 1 : 5,
              source_addr_npi: /^\+?\d+$/.test(options.from) ? 1 : 0,
              destination_addr: message.to.replace(/^\+/, ''),
              dest_addr_ton: 1,
              dest_addr_npi: 1,
              registered_delivery: 1,
              data_coding: dataCoding,
              esm_class: part.udh ? 0x40 : 0,
              short_message: part.udh ? { udh: part.udh, message: part.text } : part.text,
            }),
            'SMPP submit_sm',
          );
        } catch (error) {
          return temporary((error as Error).message);
        }
        if (resp.command_status !== 0) {
          const status = `0x${resp.command_status.toString(16).padStart(8, '0')}`;
          const error = `submit_sm refused: command_status ${status}`;
          return PERMANENT_STATUS.has(resp.command_status) ? permanent(error) : temporary(error);
        }
        if (resp.message_id) ids.push(resp.message_id);
      }
      return { ok: true, providerId: ids.join(',') || null };
    },
    onReceipt(listener) {
      receiptListener = listener;
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const s = session;
      session = null;
      bound = null;
      if (s) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            s.destroy();
            resolve();
          }, 1000);
          s.unbind?.(() => {
            clearTimeout(timer);
            s.close();
            resolve();
          });
        });
      }
    },
  };
}

import { readFileSync } from 'node:fs';
import type { Transporter } from 'nodemailer';
import { lazyPackage } from '../../../lib/lazy-package.ts';
import { type OutgoingEmail, permanent, type SendOutcome, type Transport, temporary } from './transport.ts';

const nodemailer = lazyPackage<typeof import('nodemailer')>('nodemailer');

export interface SmtpOptions {
  /** smtp://user:pass@host:port (STARTTLS when the server offers it) or smtps://… (implicit TLS). */
  url: string;
  /** "Name <address>": the envelope sender and the From address. */
  from: string;
  /** Pooled connections kept open to the server. */
  poolSize: number;
  dkim?: { domain: string; selector: string; keyFile: string };
  /** Extra CA certificates (PEM) trusted for the server's TLS certificate. */
  ca?: string;
  /** ms a connection, greeting or command may take. */
  timeoutMs?: number;
}

/** The address part of "Name <address>" (or the text itself). */
export function addressOf(from: string): string {
  const m = /<([^>]+)>\s*$/.exec(from);
  return (m ? m[1] : from).trim();
}

/**
 * E-mail over SMTP with nodemailer, on a pool of connections (a burst of messages shares them rather
 * than opening one each). SMTP answers are classified: 5xx to the envelope or the data is permanent
 * (the address does not exist, the message is refused); 4xx, a refused or dropped connection, a
 * timeout and a failed login (the operator's to fix, not the recipient's) are tried again.
 *
 * @example
 * const smtp = smtpTransport({ url: 'smtp://mail.example.com:587', from: 'Gifts <gifts@example.com>', poolSize: 5 });
 */
export function smtpTransport(options: SmtpOptions): Transport<OutgoingEmail> {
  const url = new URL(options.url);
  const timeout = options.timeoutMs ?? 30_000;
  let transporter: Transporter | null = null;
  const fromAddress = addressOf(options.from);
  const fromName = options.from.includes('<') ? options.from.slice(0, options.from.indexOf('<')).trim() : '';
  const open = () => {
    transporter ??= nodemailer().createTransport({
      pool: true,
      maxConnections: options.poolSize,
      maxMessages: 1000,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      tls: options.ca ? { ca: options.ca } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dkim: options.dkim
        ? {
            domainName: options.dkim.domain,
            keySelector: options.dkim.selector,
            privateKey: readFileSync(options.dkim.keyFile, 'utf8'),
          }
        : undefined,
    });
    return transporter;
  };

  return {
    name: 'smtp',
    async send(message) {
      try {
        const info = await open().sendMail({
          from: { name: message.fromName ?? fromName, address: fromAddress },
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
        });
        if ((info.rejected ?? []).length > 0) return permanent(`refused: ${String(info.response ?? '')}`);
        return { ok: true, providerId: String(info.response ?? '').slice(0, 200) || null };
      } catch (error) {
        return classify(error);
      }
    },
    async close() {
      transporter?.close();
      transporter = null;
    },
  };
}

function classify(error: unknown): SendOutcome {
  const e = error as { responseCode?: number; code?: string; response?: string; message?: string };
  const text = (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300);
  if (e.code === 'EAUTH') return temporary(`SMTP login refused: ${text}`);
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) return permanent(text);
  return temporary(text);
}

import { lazyPackage } from '../../../lib/lazy-package.ts';
import { type OutgoingSms, permanent, type SendOutcome, type Transport, temporary } from './transport.ts';

const undici = lazyPackage<typeof import('undici')>('undici');

export interface TwilioOptions {
  /** twilio://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com (any host: a test points it at its own server). */
  url: string;
  /** From: a Twilio number or alphanumeric sender id. */
  from: string;
  /** Extra CA certificates (PEM) trusted for the API's TLS certificate. */
  ca?: string;
  timeoutMs?: number;
}

// Twilio's error codes that say the number or the text is wrong: sending again would fail again.
// https://www.twilio.com/docs/api/errors — 21211 invalid To, 21214 not reachable, 21408 region not
// enabled, 21610 unsubscribed, 21612 not a reachable carrier, 21614 not a mobile number, 21617 too long.
const PERMANENT_CODES = new Set([21211, 21214, 21408, 21610, 21612, 21614, 21617]);

/**
 * SMS through Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`, a form body,
 * HTTP Basic with the account SID and token). A 2xx is sent (the answer's `sid` kept); a 4xx whose
 * `code` says the number or text is wrong is permanent; 429, 5xx and network failures are tried again.
 *
 * @example
 * const sms = twilioTransport({ url: 'twilio://AC123:token@api.twilio.com', from: '+15005550006' });
 */
export function twilioTransport(options: TwilioOptions): Transport<OutgoingSms> {
  const url = new URL(options.url);
  const sid = decodeURIComponent(url.username);
  const auth = Buffer.from(`${sid}:${decodeURIComponent(url.password)}`).toString('base64');
  const endpoint = `https://${url.host}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`;
  let agent: import('undici').Agent | null = null;
  const timeout = options.timeoutMs ?? 15_000;

  return {
    name: 'twilio',
    async send(message): Promise<SendOutcome> {
      const { Agent, request } = undici();
      agent ??= new Agent({ connect: options.ca ? { ca: options.ca } : {}, connections: 8 });
      try {
        const response = await request(endpoint, {
          method: 'POST',
          dispatcher: agent,
          headers: {
            authorization: `Basic ${auth}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: message.to, From: options.from, Body: message.text }).toString(),
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
        const text = await response.body.text();
        let body: { sid?: string; code?: number; message?: string } = {};
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the status alone decides
        }
        if (response.statusCode >= 200 && response.statusCode < 300)
          return { ok: true, providerId: body.sid ?? null };
        const error = `Twilio ${response.statusCode}${body.code ? ` (${body.code})` : ''}: ${body.message ?? text.slice(0, 200)}`;
        if (response.statusCode === 429 || response.statusCode >= 500) return temporary(error);
        if (body.code !== undefined && PERMANENT_CODES.has(body.code)) return permanent(error);
        // 401/403/404: the operator's configuration, not the recipient: tried again until it is fixed
        return response.statusCode === 400 ? permanent(error) : temporary(error);
      } catch (error) {
        return temporary(`Twilio unreachable: ${(error as Error).message}`);
      }
    },
    async close() {
      await agent?.close();
      agent = null;
    },
  };
}

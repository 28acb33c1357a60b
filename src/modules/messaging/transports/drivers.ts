import { smppTransport } from './smpp-transport.ts';
import { smtpTransport } from './smtp-transport.ts';
import type { OutgoingEmail, OutgoingSms, Transport } from './transport.ts';
import { twilioTransport } from './twilio-transport.ts';

/**
 * Which driver a URL names, by its scheme. A new SMS (or mail) service is one file with a function
 * of this shape and one line here.
 */
export interface DriverSettings {
  from: string;
  ca?: string;
}

/** `?bind=transmitter` binds as a transmitter; a transceiver otherwise. */
const bindOf = (url: string) =>
  new URL(url).searchParams.get('bind') === 'transmitter'
    ? ('transmitter' as const)
    : ('transceiver' as const);

type SmsDriver = (url: string, settings: DriverSettings) => Transport<OutgoingSms>;

export const SMS_DRIVERS: Record<string, SmsDriver> = {
  'smpp:': (url, s) => smppTransport({ url, from: s.from, bind: bindOf(url) }),
  'ssmpp:': (url, s) => smppTransport({ url, from: s.from, bind: bindOf(url) }),
  'twilio:': (url, s) => twilioTransport({ url, from: s.from, ca: s.ca }),
};

export const EMAIL_SCHEMES = ['smtp:', 'smtps:'];

/** The SMS driver of SMS_URL; throws naming the schemes known when it names none. */
export function smsDriverFor(url: string, settings: DriverSettings): Transport<OutgoingSms> {
  const driver = SMS_DRIVERS[new URL(url).protocol];
  if (!driver)
    throw new Error(`SMS_URL: unknown scheme, expected one of ${Object.keys(SMS_DRIVERS).join(', ')}`);
  return driver(url, settings);
}

export function emailDriverFor(
  url: string,
  settings: DriverSettings & {
    poolSize: number;
    dkim?: { domain: string; selector: string; keyFile: string };
  },
): Transport<OutgoingEmail> {
  return smtpTransport({
    url,
    from: settings.from,
    poolSize: settings.poolSize,
    dkim: settings.dkim,
    ca: settings.ca,
  });
}

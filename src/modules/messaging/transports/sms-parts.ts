import { randomInt } from 'node:crypto';

/**
 * A text message cut into SMS parts as SMPP 3.4 and GSM 03.40 say: text in the GSM 7-bit alphabet
 * (data_coding 0) fits 160 characters in one message, 153 per part when concatenated (6 octets of
 * User Data Header: IEI 0x00, 8-bit reference, part count, part number); anything else goes as UCS-2
 * (data_coding 8): 70 characters alone, 67 per part. Characters of the GSM extension table (€ [ ] { }
 * ~ ^ \ |) take two septets. A part never splits a surrogate pair or an escape.
 *
 * @example
 * smsParts('Your code is 123456').parts.length; // 1, no UDH
 * smsParts('x'.repeat(200)).parts.map((p) => p.text.length); // [153, 47], each with its UDH
 */
export interface SmsPart {
  text: string;
  /** The User Data Header of a concatenated part; absent for a single message. */
  udh?: Buffer;
}

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '\f^{}\\[~]|€';

function septets(char: string): number | null {
  if (GSM_BASIC.includes(char)) return 1;
  if (GSM_EXTENDED.includes(char)) return 2;
  return null;
}

export function smsParts(text: string, reference = randomInt(256)): { dataCoding: 0 | 8; parts: SmsPart[] } {
  const chars = Array.from(text);
  const gsm = chars.every((c) => septets(c) !== null);
  // UCS-2 counts UTF-16 units: a character outside the BMP takes two
  const size = (c: string) => (gsm ? (septets(c) as number) : c.length);
  const total = chars.reduce((n, c) => n + size(c), 0);
  const single = gsm ? 160 : 70;
  const dataCoding = gsm ? 0 : 8;
  if (total <= single) return { dataCoding, parts: [{ text }] };
  const perPart = gsm ? 153 : 67;
  const texts: string[] = [];
  let current = '';
  let used = 0;
  for (const c of chars) {
    if (used + size(c) > perPart) {
      texts.push(current);
      current = '';
      used = 0;
    }
    current += c;
    used += size(c);
  }
  if (current) texts.push(current);
  const count = texts.length;
  return {
    dataCoding,
    parts: texts.map((t, i) => ({ text: t, udh: Buffer.from([0x05, 0x00, 0x03, reference, count, i + 1]) })),
  };
}

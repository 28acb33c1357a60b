import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238, over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps,
 * 6 digits, the codes of one step either side accepted (a phone's clock a little off, a code typed
 * at a step's end). Secrets are 20 random bytes, shown to people in base32 (RFC 4648, no padding)
 * and in an `otpauth://` URI that authenticator apps read.
 *
 * @example
 * const secret = newTotpSecret();
 * totpCode(secret, stepAt(Date.now()));            // '492039'
 * matchingStep(secret, '492039', Date.now(), null); // the step it belongs to, or null
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one. */
const WINDOW = 1;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): Buffer => randomBytes(20);

/** The time step of a moment (milliseconds since the epoch). */
export const stepAt = (ms: number): number => Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);

/** The HOTP value of `counter` (RFC 4226 §5.3, dynamic truncation), `digits` long. */
export function totpCode(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac('sha1', secret).update(message).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * The step whose code `code` is, within one step of `nowMs`, and later than `lastStep` (a code once
 * accepted is never accepted again, nor is an older one); null when none.
 */
export function matchingStep(
  secret: Buffer,
  code: string,
  nowMs: number,
  lastStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = stepAt(nowMs);
  let found: number | null = null;
  // every candidate is compared (constant work whichever matches)
  for (let step = now - WINDOW; step <= now + WINDOW; step++) {
    const same = timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(code));
    if (same && (lastStep === null || step > lastStep) && found === null) found = step;
  }
  return found;
}

/** The `otpauth://totp/…` URI authenticator apps read (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secret: Buffer): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}

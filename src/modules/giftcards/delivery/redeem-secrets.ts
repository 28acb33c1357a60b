import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../../../lib/sealed-text.ts';

/**
 * The secrets of recipient delivery, all derived from the card codes key (HKDF, one key per purpose)
 * and the id of a row, never stored:
 *
 * - a redeem link's token: HMAC-SHA256(link key, "link:<id>"), 192 bits, base64url (32 characters).
 *   The database keeps only its SHA-256 (`redeem_links.token_hash`), looked up by it. Being derived,
 *   the trigger that creates a link needs no secret, and the worker renders the same link at every
 *   attempt (a retried e-mail is the same e-mail).
 * - a one-time SMS code: HMAC(code key, "code:<id>") as 6 decimal digits.
 * - the redeem page's form token: HMAC(form key, "form:<link id>:<issued at>") and the time, so a
 *   POST comes from a page this server served within the hour (without JavaScript or cookies).
 *
 * @example
 * const secrets = redeemSecrets(loadKey);
 * const token = await secrets.linkToken(42);   // 'w3K…' (32 chars)
 * secrets.hashOf(token);                        // the stored SHA-256, hex
 * await secrets.smsCode(7);                     // '083412'
 */
export const FORM_TOKEN_TTL_MS = 3600_000;

export function redeemSecrets(loadKey: () => Promise<Buffer>) {
  const keys = new Map<string, Promise<Buffer>>();
  const key = (purpose: string) => {
    let k = keys.get(purpose);
    if (!k) {
      k = derivedKey(loadKey, `airgift redeem ${purpose}`)();
      keys.set(purpose, k);
    }
    return k;
  };
  const mac = async (purpose: string, text: string) =>
    createHmac('sha256', await key(purpose))
      .update(text)
      .digest();

  return {
    async linkToken(linkId: number): Promise<string> {
      return (await mac('link', `link:${linkId}`)).subarray(0, 24).toString('base64url');
    },

    hashOf(token: string): string {
      return createHash('sha256').update(token).digest('hex');
    },

    async smsCode(codeId: number): Promise<string> {
      return String((await mac('code', `code:${codeId}`)).readUInt32BE(0) % 1_000_000).padStart(6, '0');
    },

    async formToken(linkId: number, issuedAt: Date): Promise<string> {
      const at = issuedAt.getTime().toString(36);
      return `${at}.${(await mac('form', `form:${linkId}:${at}`)).subarray(0, 16).toString('base64url')}`;
    },

    /** True when `token` was made by formToken for this link less than an hour before `now`. */
    async formTokenValid(linkId: number, token: string, now: Date): Promise<boolean> {
      const [at, sig] = token.split('.');
      if (!at || !sig || !/^[0-9a-z]{1,12}$/.test(at)) return false;
      const issued = Number.parseInt(at, 36);
      if (!(now.getTime() - issued < FORM_TOKEN_TTL_MS && issued <= now.getTime() + 60_000)) return false;
      const expected = (await mac('form', `form:${linkId}:${at}`)).subarray(0, 16);
      const given = Buffer.from(sig, 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type RedeemSecrets = ReturnType<typeof redeemSecrets>;

import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomFillSync,
} from 'node:crypto';

/**
 * Text sealed at rest: AES-256-GCM with a random 96-bit IV per value, stored as `iv.tag.ciphertext`
 * (base64url). Redeem codes and PIN vouchers (`lib/card-codes.ts`), upstream client secrets
 * (`modules/upstream/`), webhook secrets, TOTP secrets and the links of queued invitation and reset
 * e-mails are kept this way. The key is loaded once, on first use.
 *
 * @example
 * const sealer = textSealer(async () => keyBytes);
 * const stored = await sealer.seal('6011000990139424'); // 'q1….Zx….9f…', different every time
 * await sealer.open(stored);                            // '6011000990139424'
 */
export function textSealer(loadKey: () => Promise<Buffer>) {
  // The key as a KeyObject, made once: a raw Buffer would be imported again at every seal.
  let key: Promise<KeyObject> | null = null;
  const theKey = () => {
    key ??= loadKey().then((bytes) => createSecretKey(bytes));
    return key;
  };
  return {
    async seal(plain: string): Promise<string> {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', await theKey(), iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
    },
    async open(sealed: string): Promise<string> {
      const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', await theKey(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * A fresh random 96-bit IV (a copy, its own memory). The random bytes are drawn 512 IVs at a time:
 * one call into the system's generator per 512 seals instead of one each (a sealed gift card order
 * seals two codes per card: this was a third of the sealing's cost).
 */
const IV_BYTES = 12;
const ivPool = Buffer.alloc(IV_BYTES * 512);
let ivAt = ivPool.length;
function nextIv(): Buffer {
  if (ivAt === ivPool.length) {
    randomFillSync(ivPool);
    ivAt = 0;
  }
  ivAt += IV_BYTES;
  return Buffer.from(ivPool.subarray(ivAt - IV_BYTES, ivAt));
}

export type TextSealer = ReturnType<typeof textSealer>;

/**
 * A key of its own for one purpose, derived from a master key by HKDF-SHA256, so one key never
 * serves two purposes (the card codes key also seals upstream secrets, through such a derived key).
 *
 * @example
 * const secretsKey = derivedKey(() => cardCodesKey(cfg, dir), 'airgift upstream client secret');
 */
export function derivedKey(loadKey: () => Promise<Buffer>, purpose: string): () => Promise<Buffer> {
  return async () => Buffer.from(hkdfSync('sha256', await loadKey(), Buffer.alloc(0), purpose, 32));
}

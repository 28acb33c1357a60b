import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV per value, stored as `iv.tag.ciphertext`
 * (base64url). Used for redeem codes (giftcards/orders/card-codes.ts) and webhook signing secrets.
 * `derivedKey` gives each use a key of its own from one configured key (HKDF), so one key never
 * serves two purposes.
 *
 * @example
 * const sealed = sealer(async () => keyBytes);
 * const stored = await sealed.seal('whsec_…'); // 'q1….Zx….9f…'
 * await sealed.open(stored);                   // 'whsec_…'
 */
export function sealer(loadKey: () => Promise<Buffer>) {
  let key: Promise<Buffer> | null = null;
  const theKey = () => {
    key ??= loadKey();
    return key;
  };
  return {
    async seal(plain: string): Promise<string> {
      const iv = randomBytes(12);
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

export type Sealer = ReturnType<typeof sealer>;

/** A 32-byte key for one purpose (`info`), derived from `key` with HKDF-SHA256. */
export function derivedKey(key: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, 32));
}

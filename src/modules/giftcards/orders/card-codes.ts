import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateSecret } from '../../../lib/secret-files.ts';

/**
 * Redeem codes at rest: AES-256-GCM with a random 96-bit IV per value, stored as
 * `iv.tag.ciphertext` (base64url). The key is `CARD_CODES_KEY` (base64, 32 bytes) or, when unset,
 * one generated into `DATA_DIR/card-codes.key` on first use. Losing the key loses the codes.
 *
 * @example
 * const codec = cardCodec(async () => keyBytes);
 * const stored = await codec.seal('6011000990139424'); // 'q1….Zx….9f…'
 * await codec.open(stored);                            // '6011000990139424'
 */
export function cardCodec(loadKey: () => Promise<Buffer>) {
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

export type CardCodec = ReturnType<typeof cardCodec>;

/** The configured key, or the data directory's generated one. */
export async function cardCodesKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  const text = configured ?? (await readOrCreateSecret(join(dataDir, 'card-codes.key')));
  const key = Buffer.from(text, configured ? 'base64' : 'base64url');
  if (key.length !== 32) throw new Error('CARD_CODES_KEY must be 32 bytes, base64-encoded');
  return key;
}

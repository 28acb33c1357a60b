import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { derivedKey, sealer } from '../../../lib/sealed-text.ts';
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
 * await codec.fingerprint('6011000990139424');         // the same text every time (stock uniqueness)
 */
export function cardCodec(loadKey: () => Promise<Buffer>) {
  let key: Promise<Buffer> | null = null;
  let hmacKey: Promise<Buffer> | null = null;
  const theKey = () => {
    key ??= loadKey();
    return key;
  };
  // A key of its own for fingerprints (HKDF of the codes key), so one key never serves two purposes.
  const theHmacKey = () => {
    hmacKey ??= theKey().then((k) => derivedKey(k, 'airgift card-number fingerprint'));
    return hmacKey;
  };
  const sealed = sealer(theKey);
  return {
    /**
     * A keyed HMAC-SHA256 of a code (base64url): equal codes give equal fingerprints, so a unique index
     * can refuse a card loaded twice, while the text reveals nothing without the key.
     */
    async fingerprint(plain: string): Promise<string> {
      return createHmac('sha256', await theHmacKey())
        .update(plain, 'utf8')
        .digest('base64url');
    },
    seal: sealed.seal,
    open: sealed.open,
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

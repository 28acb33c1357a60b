import type { PinDetail } from '../fulfilment/provider.ts';

/** Seals and opens text (lib/sealed-text.ts, with the redeem codes' key). */
export interface VoucherSealer {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/**
 * The one codec of `topup_transactions.pin_detail`: a PIN voucher is kept at rest sealed with the
 * redeem codes' AES-256-GCM codec, as `{"sealed": "<iv.tag.ciphertext>"}`, and given back as the
 * voucher itself. orders-repository.ts passes every write and every row it reads through it. A row
 * written before vouchers were sealed (a plain voucher object) is read as it is.
 *
 * @example
 * const codec = pinVoucherCodec(cardCodec(loadKey));
 * const stored = await codec.toColumn(voucher); // '{"sealed":"q1….Zx….9f…"}'
 * await codec.fromColumn(JSON.parse(stored));  // the voucher
 */
export function pinVoucherCodec(sealer: VoucherSealer) {
  return {
    async toColumn(voucher: PinDetail | null): Promise<string | null> {
      return voucher === null ? null : JSON.stringify({ sealed: await sealer.seal(JSON.stringify(voucher)) });
    },
    async fromColumn(stored: unknown): Promise<PinDetail | null> {
      if (stored === null || stored === undefined) return null;
      const sealed = (stored as { sealed?: unknown }).sealed;
      if (typeof sealed !== 'string') return stored as PinDetail;
      return JSON.parse(await sealer.open(sealed)) as PinDetail;
    },
  };
}

export type PinVoucherCodec = ReturnType<typeof pinVoucherCodec>;

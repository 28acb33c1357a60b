import type { Product } from '../../http/bases.ts';

/**
 * Scopes (decisions §2). The gift card service has one scope for everything; the top-up service
 * splits reading, sending and balance. A credential carries a set (default: all of them); a token
 * carries the part of that set that belongs to its audience's product.
 */
export const GIFTCARD_SCOPES = ['developer'] as const;
export const TOPUP_SCOPES = [
  'send-topups',
  'read-topups-history',
  'read-operators',
  'read-promotions',
  'read-prepaid-balance',
  'read-prepaid-commissions',
] as const;
export const ALL_SCOPES: readonly string[] = [...GIFTCARD_SCOPES, ...TOPUP_SCOPES];

export function scopesForProduct(scopes: readonly string[], product: Product): string[] {
  const own: readonly string[] = product === 'giftcards' ? GIFTCARD_SCOPES : TOPUP_SCOPES;
  return own.filter((s) => scopes.includes(s));
}

export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((s) => !ALL_SCOPES.includes(s));
}

import { type ChangeVersions, ClearableCache } from '../../lib/change-versions.ts';
import type { Principal } from './principal.ts';

/**
 * Verified tokens, kept until they expire so a request with a token seen before costs no signature
 * check and no database read. Every change of credentials or accounts (topic `auth`: a revocation,
 * a deactivation) empties it, in this process at once and in the others within the change poller's
 * interval; while the poller is not fresh nothing is served from it. Found by the base it was
 * presented to (the audience check depends on the base) and the token's signature, and served only
 * to the exact token string it was verified as.
 */
export function createTokenCache(changes: ChangeVersions | undefined, maxEntries = 50_000) {
  const cache = new ClearableCache<{ token: string; principal: Principal; expiresAtMs: number }>(maxEntries);
  changes?.onChange('auth', () => cache.clear());
  // The key holds the token's signature (after its last dot), not the whole ~700 characters: each
  // request's header is a new string, which a Map hashes whole before it can compare; the look-up
  // then compares the whole token with the one kept. A token forged onto a kept one's signature
  // shares its key, misses (the strings differ), and is verified, and refused, as if none were kept.
  const keyOf = (baseUrl: string, token: string) => `${baseUrl} ${token.slice(token.lastIndexOf('.') + 1)}`;
  return {
    get(baseUrl: string, token: string, nowMs: number): Principal | undefined {
      if (!changes?.fresh()) return undefined;
      const key = keyOf(baseUrl, token);
      const hit = cache.get(key);
      if (hit?.token !== token) return undefined;
      if (hit.expiresAtMs <= nowMs) {
        cache.delete(key);
        return undefined;
      }
      return hit.principal;
    },
    ticket: () => cache.ticket(),
    set(baseUrl: string, token: string, principal: Principal, expiresAtMs: number, ticket: number) {
      cache.set(keyOf(baseUrl, token), { token, principal, expiresAtMs }, ticket);
    },
    clear: () => cache.clear(),
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;

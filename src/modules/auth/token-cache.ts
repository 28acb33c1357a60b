import { type ChangeVersions, ClearableCache } from '../../lib/change-versions.ts';
import type { Principal } from './principal.ts';

/**
 * Verified tokens, kept until they expire so a request with a token seen before costs no signature
 * check and no database read. Every change of credentials or accounts (topic `auth`: a revocation,
 * a deactivation) empties it, in this process at once and in the others within the change poller's
 * interval; while the poller is not fresh nothing is served from it. Keyed by the exact token string
 * and the base it was presented to (the audience check depends on the base).
 */
export function createTokenCache(changes: ChangeVersions | undefined, maxEntries = 50_000) {
  const cache = new ClearableCache<{ principal: Principal; expiresAtMs: number }>(maxEntries);
  changes?.onChange('auth', () => cache.clear());
  const keyOf = (baseUrl: string, token: string) => `${baseUrl} ${token}`;
  return {
    get(baseUrl: string, token: string, nowMs: number): Principal | undefined {
      if (!changes?.fresh()) return undefined;
      const key = keyOf(baseUrl, token);
      const hit = cache.get(key);
      if (!hit) return undefined;
      if (hit.expiresAtMs <= nowMs) {
        cache.delete(key);
        return undefined;
      }
      return hit.principal;
    },
    ticket: () => cache.ticket(),
    set(baseUrl: string, token: string, principal: Principal, expiresAtMs: number, ticket: number) {
      cache.set(keyOf(baseUrl, token), { principal, expiresAtMs }, ticket);
    },
    clear: () => cache.clear(),
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;

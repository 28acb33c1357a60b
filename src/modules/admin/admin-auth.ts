import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/error-codes.ts';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limiter.ts';

/**
 * The admin API is the operator's: one key (ADMIN_KEY, or generated into the data directory on
 * first start), sent as `Authorization: Bearer <key>` or `X-Admin-Key: <key>`. Compared in
 * constant time over hashes so neither content nor length leaks.
 *
 * Guessing is slowed: every failed check counts against the client's address (the proxy's
 * X-Forwarded-For only from TRUSTED_PROXIES) in the shared rate limiter; past `failures.limit` in a
 * window that address is answered 429 RATE_LIMIT_REACHED until the window ends, whatever key it
 * sends, so a right guess cannot be told from a wrong one while blocked. The block is remembered in
 * each process from the limiter's answer (with Redis, every server learns it at the address's next
 * failure there).
 *
 * A request with the right key is known by the key's id (`request.adminKeyId`, what the audit log
 * names): the first 12 hex digits of the key's SHA-256, never the key itself
 * (`printf %s "$ADMIN_KEY" | sha256sum | cut -c1-12` gives it).
 *
 * @example
 * installAdminAuth(admin, key, { limiter, rule: { limit: 10, windowMs: 300_000 } });
 */
export interface AdminAuthOptions {
  limiter?: RateLimiter;
  /** Failed checks per address per window; null: not limited. */
  rule?: RateLimitRule | null;
  now?: () => number;
  /** Told of each refusal for too many failures (metrics). */
  onRefused?: () => void;
}

/** Addresses kept in the in-process block list at most (older ones are dropped first). */
const MAX_BLOCKED = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of the admin key the request was made with (admin base, after the key check). */
    adminKeyId: string | null;
  }
}

/** An admin key's id: the first 12 hex digits of its SHA-256 (a fingerprint; the key cannot be read back from it). */
export function adminKeyId(adminKey: string): string {
  return createHash('sha256').update(adminKey).digest('hex').slice(0, 12);
}

export function installAdminAuth(app: FastifyInstance, adminKey: string, options: AdminAuthOptions = {}) {
  const expected = createHash('sha256').update(adminKey).digest();
  const keyId = adminKeyId(adminKey);
  app.decorateRequest('adminKeyId', null);
  const now = options.now ?? Date.now;
  const blockedUntil = new Map<string, number>();
  const refuse = (until: number): never => {
    options.onRefused?.();
    const retryAfter = String(Math.max(1, Math.ceil((until - now()) / 1000)));
    throw new AppError(
      'RATE_LIMIT_REACHED',
      `Too many failed admin key checks from this address; retry after ${retryAfter} s`,
      [],
      { 'Retry-After': retryAfter },
    );
  };
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.docs) return;
    const until = blockedUntil.get(request.ip);
    if (until !== undefined) {
      if (until > now()) refuse(until);
      blockedUntil.delete(request.ip);
    }
    const header = request.headers['x-admin-key'];
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const given = (Array.isArray(header) ? header[0] : header) ?? bearer;
    const ok = given !== undefined && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    if (ok) {
      request.adminKeyId = keyId;
      return;
    }
    if (options.limiter && options.rule) {
      const decision = await options.limiter.hit(`admin-failures:${request.ip}`, options.rule);
      if (!decision.allowed) {
        if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value as string);
        blockedUntil.set(request.ip, now() + decision.resetMs);
        refuse(now() + decision.resetMs);
      }
    }
    throw new AppError('AUTHENTICATION_FAILURE', 'A valid admin key is required');
  });
}

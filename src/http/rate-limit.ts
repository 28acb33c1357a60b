import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors/error-codes.ts';
import type { Clock } from '../lib/clock.ts';
import {
  memoryRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitRule,
} from '../lib/rate-limiter.ts';
import { type RedisStateEvent, redisRateLimiter } from '../lib/redis-rate-limiter.ts';
import { MOUNTS } from './bases.ts';

/**
 * Rate limits (README "Rate limits"): token requests per client_id on the token endpoint, API requests
 * per account and environment on the product bases, each a fixed window of RATE_LIMIT_WINDOW_SECONDS.
 * A limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds);
 * a refusal is a 429 with `Retry-After`: `RATE_LIMIT_REACHED` in the envelope on the product bases,
 * OAuth's `{error: "too_many_requests", error_description}` on the token endpoint.
 */
export type AppRateLimiter = RateLimiter & { onChange?(listener: (event: RedisStateEvent) => void): void };

/** Shared through Redis when REDIS_URL is set (counting here while it is away), else in this process. */
export function openRateLimiter(config: Config, clock: Clock): AppRateLimiter {
  const local = memoryRateLimiter(clock);
  if (!config.redisUrl) return local;
  return redisRateLimiter({ url: config.redisUrl, prefix: config.redisKeyPrefix, fallback: local });
}

const rule = (limit: number, config: Config): RateLimitRule | null =>
  limit > 0 ? { limit, windowMs: config.rateLimitWindowSeconds * 1000 } : null;

export function headersOf(d: RateLimitDecision): Record<string, string> {
  const reset = String(Math.max(1, Math.ceil(d.resetMs / 1000)));
  return {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': reset,
    ...(d.allowed ? {} : { 'Retry-After': reset }),
  };
}

const TOKEN_ROUTE = `${MOUNTS.auth}/oauth/token`;

/**
 * On the token base: every `POST /oauth/token` counts against the client_id it names, before the
 * secret is checked (so guessing one client's secret is slowed too); a request naming none counts
 * against its IP address (the proxy's X-Forwarded-For only from TRUSTED_PROXIES).
 */
export function installTokenRateLimit(
  app: FastifyInstance,
  limiter: RateLimiter | undefined,
  config: Config,
) {
  const limit = rule(config.rateLimitTokenRequests, config);
  if (!limiter || !limit) return;
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.url !== TOKEN_ROUTE) return;
    const body = request.body as { client_id?: unknown } | null;
    const clientId = typeof body?.client_id === 'string' ? body.client_id.slice(0, 200) : '';
    const key = clientId ? `token:client:${clientId}` : `token:ip:${request.ip}`;
    const decision = await limiter.hit(key, limit);
    const headers = headersOf(decision);
    reply.headers(headers);
    if (decision.allowed) return;
    // The token endpoint answers every error in OAuth's form (decisions §2); RFC 6749 names no error
    // for this, so the common `too_many_requests`, with the status and Retry-After saying the rest.
    return reply
      .code(429)
      .header('Cache-Control', 'no-store')
      .send({
        error: 'too_many_requests',
        error_description: `Too many token requests for this client (at most ${decision.limit} per ${config.rateLimitWindowSeconds} s); retry after ${headers['Retry-After']} s, and reuse a token until it expires`,
      });
  });
}

/** The rule of the product bases' account limit, or null when they are not limited. */
export const accountRule = (config: Config) => rule(config.rateLimitApiRequests, config);

/** What an account's requests in one environment count against. */
export const accountLimitKey = (p: { environment: string; accountId: number }) =>
  `api:${p.environment}:${p.accountId}`;

/**
 * On a product base, after the auth hook: every authenticated request counts against its account in
 * its environment (live and sandbox are limited apart, decisions §7). Public routes (docs) are not
 * counted, and neither are requests the auth hook refused.
 */
export function installAccountRateLimit(
  app: FastifyInstance,
  limiter: RateLimiter | undefined,
  config: Config,
) {
  const limit = accountRule(config);
  if (!limiter || !limit) return;
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    if (!principal) return;
    const decision = await limiter.hit(accountLimitKey(principal), limit);
    const headers = headersOf(decision);
    if (decision.allowed) {
      reply.headers(headers);
      return;
    }
    throw new AppError(
      'RATE_LIMIT_REACHED',
      `Too many requests for this account (at most ${decision.limit} per ${config.rateLimitWindowSeconds} s); retry after ${headers['Retry-After']} s`,
      [],
      headers,
    );
  });
}

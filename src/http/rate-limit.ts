import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors/error-codes.ts';
import { OAuthError } from '../errors/oauth-error.ts';
import type { Clock } from '../lib/clock.ts';
import {
  memoryRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitRule,
} from '../lib/rate-limiter.ts';
import { type RedisStateEvent, redisRateLimiter } from '../lib/redis-rate-limiter.ts';
import type { TokenGuard } from '../modules/auth/index.ts';

/**
 * Rate limits (README "Rate limits"): on the token endpoint, tokens issued per client_id and refusals
 * per address and per client_id from an address; API requests per account and environment on the
 * product bases, each a fixed window of RATE_LIMIT_WINDOW_SECONDS.
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

/**
 * On the token base, once the secret has been checked (token-service.ts): a right secret counts
 * against its client_id (RATE_LIMIT_TOKEN_REQUESTS), and nothing else does, so no one who merely
 * knows a client_id (it is every token's `sub`) can spend its owner's budget. Every refused request
 * counts against its address (RATE_LIMIT_TOKEN_ADDRESS_FAILURES) and, when it names a client_id,
 * against that client_id from that address (RATE_LIMIT_TOKEN_FAILURES); past either it is answered
 * 429 instead of 401. A right secret is never refused for failures, wherever they came from.
 * Addresses are the proxy's X-Forwarded-For only from TRUSTED_PROXIES.
 *
 * @example
 * const guardOf = tokenGuards(limiter, config);
 * await tokens.issue(body, guardOf?.(request.ip, reply));
 */
export function tokenGuards(
  limiter: RateLimiter | undefined,
  config: Config,
): ((ip: string, reply: FastifyReply) => TokenGuard) | undefined {
  const successes = rule(config.rateLimitTokenRequests, config);
  const clientFailures = rule(config.rateLimitTokenFailures, config);
  const addressFailures = rule(config.rateLimitTokenAddressFailures, config);
  if (!limiter) return undefined;
  const window = `${config.rateLimitWindowSeconds} s`;
  return (ip, reply) => ({
    async granted(clientId) {
      if (!successes) return;
      const decision = await limiter.hit(`token:client:${clientId}`, successes);
      const headers = headersOf(decision);
      reply.headers(headers);
      if (decision.allowed) return;
      throw tooMany(
        `Too many token requests for this client (at most ${decision.limit} per ${window}); retry after ${headers['Retry-After']} s, and reuse a token until it expires`,
        headers,
      );
    },
    async refused(clientId, error) {
      const decisions = await Promise.all([
        clientId && clientFailures
          ? limiter.hit(`token:failures:${clientId.slice(0, 200)}:${ip}`, clientFailures)
          : null,
        addressFailures ? limiter.hit(`token:failures:${ip}`, addressFailures) : null,
      ]);
      // The headers of the tighter count: a refusal, else the one with the fewest left.
      const counted = decisions.filter((d): d is RateLimitDecision => d !== null);
      const tightest =
        counted.find((d) => !d.allowed) ?? counted.sort((a, b) => a.remaining - b.remaining)[0];
      if (!tightest) return error;
      const headers = headersOf(tightest);
      reply.headers(headers);
      if (tightest.allowed) return error;
      return tooMany(
        `Too many refused token requests from this address (at most ${tightest.limit} per ${window}); retry after ${headers['Retry-After']} s. A right client secret is still served`,
        headers,
      );
    },
  });
}

const tooMany = (description: string, headers: Record<string, string>) =>
  new OAuthError('too_many_requests', description, { ...headers, 'Cache-Control': 'no-store' });

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

import type { Redis } from 'ioredis';
import { lazyPackage } from './lazy-package.ts';
import { decide, type RateLimiter, type RateLimitRule } from './rate-limiter.ts';

/**
 * The rate limiter every server of a deployment shares: one Redis counter per key and window
 * (INCR, and PEXPIRE on the window's first hit, in one Lua script so the two cannot be split).
 * Redis being away never fails a request and never holds one: commands time out after
 * `commandTimeoutMs`, nothing is queued while disconnected, and until Redis is back every hit is
 * counted by `fallback` (in this process). `onChange` hears one `down` when Redis goes away and one
 * `up` when it is back; the client reconnects by itself.
 *
 * @example
 * const limiter = redisRateLimiter({ url: 'redis://127.0.0.1:6379', prefix: 'airgift:', fallback: memoryRateLimiter(clock) });
 * limiter.onChange((e) => log.warn(e.kind === 'down' ? `redis down: ${e.reason}` : 'redis back'));
 */
export interface RedisRateLimiterOptions {
  url: string;
  /** Put before every key, so deployments (and test runs) sharing a Redis keep apart. */
  prefix: string;
  fallback: RateLimiter;
  /** Longest wait for one Redis answer, then the hit is counted by `fallback`. */
  commandTimeoutMs?: number;
}

export type RedisStateEvent = { kind: 'down'; reason: string } | { kind: 'up'; downForMs: number };

export interface RedisRateLimiter extends RateLimiter {
  onChange(listener: (event: RedisStateEvent) => void): void;
  /** `up` once Redis has answered, `down` while it is away, `starting` before the first connection. */
  state(): 'starting' | 'up' | 'down';
}

const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

/** Loaded only when REDIS_URL is set. */
const ioredis = lazyPackage<typeof import('ioredis')>('ioredis');

type HitClient = Redis & { airgiftHit(key: string, windowMs: number): Promise<[number, number]> };

export function redisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const timeout = options.commandTimeoutMs ?? 500;
  const client = new (ioredis().Redis)(options.url, {
    enableOfflineQueue: false,
    commandTimeout: timeout,
    // A connection that takes no answer (a stalled server) is dropped and made again.
    socketTimeout: Math.max(1000, timeout * 4),
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    lazyConnect: false,
  }) as HitClient;
  client.defineCommand('airgiftHit', { numberOfKeys: 1, lua: HIT_SCRIPT });

  const listeners: ((event: RedisStateEvent) => void)[] = [];
  let state: 'starting' | 'up' | 'down' = 'starting';
  let downSince = 0;
  let lastReason = '';
  let closing = false;
  const emit = (event: RedisStateEvent) => {
    for (const l of listeners) l(event);
  };
  const down = (reason: string) => {
    if (state === 'down' || closing) return;
    state = 'down';
    downSince = Date.now();
    lastReason = reason;
    emit({ kind: 'down', reason });
  };
  const up = () => {
    if (state === 'up' || closing) return;
    const was = state;
    state = 'up';
    if (was === 'down') emit({ kind: 'up', downForMs: Date.now() - downSince });
  };
  client.on('ready', up);
  client.on('error', (error: Error) => down(error.message || String(error)));
  client.on('close', () => {
    if (state === 'up') down('connection closed');
  });

  return {
    async hit(key: string, rule: RateLimitRule) {
      if (client.status !== 'ready') {
        if (state === 'up') down(`connection ${client.status}`);
        return options.fallback.hit(key, rule);
      }
      try {
        const [count, ttl] = await client.airgiftHit(`${options.prefix}${key}`, rule.windowMs);
        return decide(Number(count), Number(ttl), rule);
      } catch (error) {
        down((error as Error).message);
        // A timed-out answer leaves a connection that may never answer again: make a new one, and
        // count here (status no longer ready) until it is ready.
        if (client.status === 'ready') client.disconnect(true);
        return options.fallback.hit(key, rule);
      }
    },
    onChange(listener) {
      listeners.push(listener);
      // Redis may have been found away before anyone listened (at start): say so now.
      if (state === 'down') listener({ kind: 'down', reason: lastReason });
    },
    state: () => state,
    async close() {
      closing = true;
      await options.fallback.close();
      if (client.status === 'ready') {
        await Promise.race([client.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 500))]);
      }
      client.disconnect();
    },
  };
}

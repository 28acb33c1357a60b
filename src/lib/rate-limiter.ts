import type { Clock } from './clock.ts';

/**
 * A fixed-window request counter: at most `limit` hits per key in a window of `windowMs` that starts
 * at the key's first hit. Two implementations: in this process (below), and shared by every server
 * through Redis (`redis-rate-limiter.ts`), which counts here while Redis is away. The HTTP side
 * (`http/rate-limit.ts`) only sees this interface.
 *
 * @example
 * const limiter = memoryRateLimiter(systemClock);
 * const d = await limiter.hit('account:sandbox:7', { limit: 1000, windowMs: 10_000 });
 * if (!d.allowed) reply.header('Retry-After', Math.ceil(d.resetMs / 1000));
 */
export interface RateLimitRule {
  /** Hits allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Hits left in this window after this one (0 when refused). */
  remaining: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

export interface RateLimiter {
  /** Counts one hit for `key` and says whether it is within `rule`. Never throws. */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  /**
   * Counts one hit only if it is allowed, at once and without I/O (the fast lane); null: not counted,
   * ask `hit`. Only a limiter that counts in this process offers it.
   */
  hitIfAllowed?(key: string, rule: RateLimitRule): RateLimitDecision | null;
  close(): Promise<void>;
}

export function decide(count: number, resetMs: number, rule: RateLimitRule): RateLimitDecision {
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetMs: Math.max(0, resetMs),
  };
}

/** Windows kept before expired ones are swept (a sweep is O(keys), so only now and then). */
const SWEEP_AT = 10_000;

/**
 * Counting in this process, on the injected clock (tests move it to end a window). Expired windows
 * are dropped when the table grows, so an endless stream of new keys cannot grow memory for ever.
 */
export function memoryRateLimiter(clock: Clock): RateLimiter & { size(): number } {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let sweepAt = SWEEP_AT;

  function windowOf(key: string, rule: RateLimitRule, now: number) {
    let w = windows.get(key);
    if (!w || w.endsAt <= now) {
      if (windows.size >= sweepAt) {
        for (const [k, v] of windows) if (v.endsAt <= now) windows.delete(k);
        sweepAt = Math.max(SWEEP_AT, windows.size * 2);
      }
      w = { count: 0, endsAt: now + rule.windowMs };
      windows.set(key, w);
    }
    return w;
  }
  return {
    async hit(key, rule) {
      const now = clock.now().getTime();
      const w = windowOf(key, rule, now);
      w.count++;
      return decide(w.count, w.endsAt - now, rule);
    },
    hitIfAllowed(key, rule) {
      const now = clock.now().getTime();
      const w = windowOf(key, rule, now);
      if (w.count + 1 > rule.limit) return null;
      w.count++;
      return decide(w.count, w.endsAt - now, rule);
    },
    async close() {
      windows.clear();
    },
    size: () => windows.size,
  };
}

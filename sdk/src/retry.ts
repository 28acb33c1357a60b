import type { RetryOptions } from './options.js';

/** Retry settings with every default filled in. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 3)),
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
  };
}

/**
 * The wait before retry number `retry` (1 = the first retry): exponential with "equal jitter", so
 * it lies between half and all of min(max, base × 2^(retry-1)), spreading clients that failed together.
 *
 * @example
 * backoffDelay(retryPolicy({ baseDelayMs: 100, random: () => 0.5 }), 3) // 300 (half of 400 + 0.5 × 200)
 */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(cap / 2 + policy.random() * (cap / 2));
}

/**
 * `Retry-After` in milliseconds: delta seconds (`120`) or an HTTP date; null when absent or unreadable.
 *
 * @example
 * retryAfterMs('2', Date.now()) // 2000
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

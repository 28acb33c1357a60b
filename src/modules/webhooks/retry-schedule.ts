/**
 * When a failed delivery is tried again: exponential backoff (x4 from 5 s, at most 8 h) with ±20 %
 * jitter, 10 retries after the first attempt, over about 31.6 h (at least 25.3 h with the jitter),
 * then the delivery is FAILED. docs/webhooks.md shows the table.
 *
 *   retry:  1    2     3      4        5         6           7          8    9    10
 *   delay:  5 s  20 s  1m20s  5m20s  21m20s  1h25m20s  5h41m20s      8 h  8 h  8 h
 *
 * @example
 * retryDelayMs(1, () => 0.5); // 5000 (the middle of 4000..6000)
 * retryDelayMs(11);           // null: no more retries
 */
export const RETRY_BASE_MS = 5_000;
export const RETRY_FACTOR = 4;
export const RETRY_MAX_DELAY_MS = 8 * 3600_000;
export const RETRIES = 10;
export const JITTER = 0.2;

/** The nominal delay before retry `n` (1-based), without jitter; null past the last retry. */
export function nominalRetryDelayMs(n: number): number | null {
  if (n < 1 || n > RETRIES) return null;
  return Math.min(RETRY_BASE_MS * RETRY_FACTOR ** (n - 1), RETRY_MAX_DELAY_MS);
}

/** The delay before retry `n` with its jitter (`random` in [0, 1)); null past the last retry. */
export function retryDelayMs(n: number, random: () => number = Math.random): number | null {
  const nominal = nominalRetryDelayMs(n);
  if (nominal === null) return null;
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random()));
}

/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600_000;

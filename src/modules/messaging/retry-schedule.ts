/**
 * When a temporarily refused message is tried again: 30 s, then twice as long each time up to an hour
 * (30 s, 1 m, 2 m, 4 m, 8 m, 16 m, 32 m, 1 h, 1 h, ...) with ±20 % jitter, for a day from the message's
 * `send_after`; a refusal after that day fails the message.
 *
 * @example
 * nextAttemptAt(1, sendAfter, now, () => 0.5); // now + 30 s
 * nextAttemptAt(30, sendAfter, dayLater);        // null: give up
 */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 3600_000;
export const GIVE_UP_AFTER_MS = 24 * 3600_000;

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const nominal = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);
  return Math.round(nominal * (0.8 + 0.4 * random()));
}

/** The next attempt after the `attempt`-th failed one, or null when the day is over. */
export function nextAttemptAt(
  attempt: number,
  sendAfter: Date,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  if (now.getTime() - sendAfter.getTime() >= GIVE_UP_AFTER_MS) return null;
  return new Date(now.getTime() + retryDelayMs(attempt, random));
}

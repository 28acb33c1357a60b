/**
 * The source of "now" for everything that stamps or compares times (tokens, ledger, reports).
 * Injected so tests can move time forward without sleeping.
 *
 * @example
 * const clock = fixedClock(new Date('2026-01-01T00:00:00Z'));
 * clock.advance(3600_000);
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AdjustableClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

/** A clock that starts at `start` (or the real time) and moves only when told to, on top of real time. */
export function offsetClock(offsetMs = 0): AdjustableClock {
  let offset = offsetMs;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
    set(date) {
      offset = date.getTime() - Date.now();
    },
  };
}

import { AppError } from '../../errors/error-codes.ts';

/**
 * The event types, and the patterns an endpoint subscribes with: a type itself, or a prefix ending in
 * `*` (`giftcard.order.*`, `topup.*`, `balance.*`, `*`). The database function `webhook_enqueue`
 * (migration 0010) matches them the same way.
 *
 * @example
 * checkPatterns(['giftcard.order.*', 'topup.successful']); // ok
 * matches('giftcard.order.*', 'giftcard.order.failed');    // true
 */
export const EVENT_TYPES = [
  'giftcard.order.successful',
  'giftcard.order.failed',
  'giftcard.order.refunded',
  'giftcard.delivery.sent',
  'giftcard.delivery.failed',
  'topup.successful',
  'topup.refunded',
  'balance.low',
  'balance.funded',
] as const;

/**
 * The event "Send a test event" sends (dashboard) to one endpoint, whatever its patterns: no pattern
 * subscribes to it, and the triggers never raise it. Its `data` names the endpoint.
 */
export const TEST_EVENT = 'webhook.test';

export type EventType = (typeof EVENT_TYPES)[number];

export function matches(pattern: string, type: string): boolean {
  return pattern === type || (pattern.endsWith('*') && type.startsWith(pattern.slice(0, -1)));
}

/** Refuses a pattern that matches no event type (a typo would otherwise never hear anything). */
export function checkPatterns(patterns: string[]): string[] {
  const clean = [...new Set(patterns.map((p) => p.trim()).filter(Boolean))];
  if (clean.length === 0) {
    throw new AppError('INVALID_REQUEST', 'Name at least one event type', [
      { field: 'events', issue: 'empty' },
    ]);
  }
  for (const p of clean) {
    if (!EVENT_TYPES.some((t) => matches(p, t))) {
      throw new AppError('INVALID_REQUEST', `No event type matches "${p}"`, [
        { field: 'events', issue: `known types: ${EVENT_TYPES.join(', ')}` },
      ]);
    }
  }
  return clean;
}

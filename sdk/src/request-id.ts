/**
 * Every answer's `X-Request-Id`, on the value a method returns. It is a non-enumerable property, so
 * it does not show in `JSON.stringify`, spreads or deep comparisons of the data; read it as
 * `result.requestId` or with `requestIdOf(result)`. Errors carry it as `AirgiftError.requestId`.
 *
 * @example
 * const balance = await airgift.giftcards.balance.get();
 * console.log(balance.balance, balance.requestId); // 1000 'b1f0c2...'
 */
export type WithRequestId<T> = T & { readonly requestId: string | null };

/** Puts `requestId` on an object or array result (other values are returned as they are). */
export function withRequestId<T>(value: T, requestId: string | null): WithRequestId<T> {
  if (value !== null && typeof value === 'object' && Object.isExtensible(value)) {
    Object.defineProperty(value, 'requestId', { value: requestId, enumerable: false, configurable: true });
  }
  return value as WithRequestId<T>;
}

/** The request id of a value an SDK method returned (null when it has none). */
export function requestIdOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const id = (value as { requestId?: unknown }).requestId;
  return typeof id === 'string' ? id : null;
}

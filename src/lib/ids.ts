import { randomBytes } from 'node:crypto';

/**
 * Random identifiers and secrets. Ids that clients see as integers (accounts, transactions) come from
 * database sequences instead; these are for opaque strings.
 *
 * @example
 * randomToken(24) // 32 url-safe characters
 */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** A request id: sortable by time, unique enough to find one request in the logs. */
export function newRequestId(now = Date.now()): string {
  return `req_${now.toString(36)}${randomBytes(6).toString('hex')}`;
}

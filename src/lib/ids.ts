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

// Request ids are made for every request: a random tag per process and a counter cost no system
// call, and stay unique across the servers of a deployment.
const processTag = randomBytes(3).toString('hex');
let requestCounter = 0;

/** A request id: sortable by time, unique enough to find one request in the logs. */
export function newRequestId(now = Date.now()): string {
  requestCounter = (requestCounter + 1) % 0x1000000;
  return `req_${now.toString(36)}${processTag}${requestCounter.toString(16).padStart(6, '0')}`;
}

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

/** The ids' start in the last millisecond one was made: a busy server makes many per millisecond. */
let prefixMs = -1;
let prefix = '';

/** A request id: sortable by time, unique enough to find one request in the logs. */
export function newRequestId(now = Date.now()): string {
  requestCounter = (requestCounter + 1) % 0x1000000;
  if (now !== prefixMs) {
    prefixMs = now;
    prefix = `req_${now.toString(36)}${processTag}`;
  }
  // six hex digits, zero-padded: the counter above a seventh digit, which is cut
  return prefix + (0x1000000 + requestCounter).toString(16).slice(1);
}

import { DATABASE_CLOSED } from '../db/connection-guard.ts';
import { DatabaseConnectError } from '../db/database.ts';
import { AppError } from './error-codes.ts';

/**
 * The one place that decides which failures are the infrastructure's, not airgift's: the database
 * refusing, dropping or timing out connections. They answer 503 with `Retry-After` (never a 500 with
 * a stack), `TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT` where an order or a top-up could not be
 * taken, `SERVICE_UNAVAILABLE` everywhere else. `error-handler.ts` asks `unavailableError()` before
 * anything else; routes never catch these themselves.
 *
 * @example
 * const unavailable = unavailableError(error, isPurchase); // AppError (503) or null
 * if (unavailable) return sendError(reply, unavailable, docsUrl);
 */

/** Seconds a client is told to wait before retrying while the database is away. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL SQLSTATEs that mean "the database is not there for us right now": class 08 (connection
 * exception), 53300 too_many_connections, 57P01 admin_shutdown (a terminated backend), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down).
 */
const SQLSTATES = new Set(['53300', '57P01', '57P02', '57P03']);

/** Socket errors on the way to the database. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * What node-postgres says, without a code, when a connection dies under a query or a checked-out
 * client is used after its connection died. (Failures to get a connection at all, the pool's own
 * timeout included, arrive as DatabaseConnectError from `db/database.ts`.)
 */
const PG_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  // PGlite runs in the process and has no outage; its one equivalent is being closed (at shutdown):
  // PGlite's own words, and those of Kysely's PGlite driver once the instance is gone.
  /^PGlite is clos(ed|ing)$/,
  /^PGlite instance is already closed\.$/,
  // ours (db/connection-guard.ts), for a query after the database was closed
  new RegExp(`^${DATABASE_CLOSED}$`),
];

/**
 * True when `error` (or its cause) says the disk is full: PostgreSQL's disk_full (53100, "could not
 * extend file ...: No space left on device"), or a file write's ENOSPC. The database is there but
 * cannot take a write: 503 with Retry-After, and `/ready` says "disk full" (readiness.ts).
 */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (e.code === '53100' || e.code === 'ENOSPC') return true;
  if (typeof e.message === 'string' && e.message.includes('No space left on device')) return true;
  return isDiskFull(e.cause, depth + 1);
}

/** True when `error` (or its cause) says the database could not be reached or went away, or its disk is full. */
export function isInfrastructureError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof DatabaseConnectError || isDiskFull(error)) return true;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (e.code.startsWith('08') && e.code.length === 5) return true;
    if (SQLSTATES.has(e.code) || SOCKET_CODES.has(e.code)) return true;
  }
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => m.test(e.message as string))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of the per-address errors.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isInfrastructureError(inner, depth + 1))) {
    return true;
  }
  return isInfrastructureError(e.cause, depth + 1);
}

/**
 * The 503 to answer for an infrastructure failure, or null for any other error. `purchase`: the
 * request would have taken money (an order, a top-up), so the answer says it was not taken.
 */
export function unavailableError(error: unknown, purchase: boolean): AppError | null {
  if (!isInfrastructureError(error)) return null;
  const headers = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
  if (purchase) {
    return new AppError(
      'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
      'The transaction cannot be processed at the moment: the database is unavailable. Retry with the same customIdentifier.',
      [],
      headers,
    );
  }
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'The service is temporarily unavailable: the database cannot be reached. Retry later.',
    [],
    headers,
  );
}

/** A short description of an infrastructure error for one log line (no stack). */
export function describeInfrastructureError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  let message = typeof e?.message === 'string' ? e.message : String(error);
  if (!message && Array.isArray(e.errors)) message = e.errors.map((inner) => inner?.message).join('; ');
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * The API request log of each account (issue 28): product-API requests written in batches off the
 * request path, read by the dashboard and the console, removed by the worker after REQUEST_LOG_DAYS.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { requestLogRepository } from './request-log-repository.ts';
import { createRequestLog } from './request-log-service.ts';

export type { RequestLogStats } from './request-log-buffer.ts';
export { LoggedRequest, RequestLogPage, RequestLogQuery } from './request-log-schemas.ts';
export type { RequestLog, RequestLogFilter } from './request-log-service.ts';

/** The request log over the app's database, keeping rows `days` days (0: off). */
export function createApiRequestLog(db: Kysely<Database>, clock: Clock, days: number) {
  return createRequestLog({ repository: requestLogRepository(db), clock, days });
}

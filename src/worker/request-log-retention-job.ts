import type { RequestLog } from '../modules/request-log/index.ts';
import type { JobHandler } from './worker.ts';

/**
 * The request log's retention: rows older than REQUEST_LOG_DAYS are removed in batches (at most
 * 100 000 rows a run, so the other jobs do not wait long), and so are the segments of successful
 * reads whose last line is (at most 2 000 a run, up to a million lines), looked for every 10 s (so
 * up to 10 000 rows a second are kept up with); while some are left the next run takes the next
 * batches. Several servers share the work (each batch skips the rows another is removing). Job id 1.
 *
 * @example
 * requestLogRetentionJob(requestLog) // in the worker's jobs; left out when REQUEST_LOG_DAYS is 0
 */
export function requestLogRetentionJob(log: Pick<RequestLog, 'expiredLeft' | 'removeExpired'>): JobHandler {
  return {
    name: 'request-log-retention',
    intervalMs: 10_000,
    due: async () => ((await log.expiredLeft()) ? [{ id: 1 }] : []),
    run: async () => {
      await log.removeExpired();
    },
  };
}

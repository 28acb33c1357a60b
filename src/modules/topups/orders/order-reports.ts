import type { Static } from 'typebox';
import { AppError } from '../../../errors/error-codes.ts';
import { parseDateTime } from '../../../lib/time-format.ts';
import type { Principal } from '../../auth/index.ts';
import type { ReportQuery } from './order-schemas.ts';
import type { TopupRow, TopupsRepository } from './orders-repository.ts';

/**
 * The read side of top-ups: the transaction reports and one transaction by id. A transaction of
 * another account or environment is not found (404), the same as an id that never existed.
 */

/**
 * A report bound: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` (an end bound includes its whole second or day)
 * or ISO 8601 with a zone. Anything else is a 400 naming the parameter.
 */
/** What `bound` accepts, as the OpenAPI document states it (`parseDateTime`'s forms, or ISO with a zone). */
export const REPORT_BOUND_PATTERN =
  '^\\s*\\d{4}-\\d{1,2}-\\d{1,2}(?:[ T]\\d{1,2}:\\d{1,2}(?::\\d{1,2})?)?\\s*$|^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})$';

function bound(text: string | undefined, field: string, end: boolean): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const plain = parseDateTime(text);
  if (plain) {
    // an end bound covers its whole second (times are shown to the second), or its whole day
    const dateOnly = /^\d{4}-\d{1,2}-\d{1,2}$/.test(text.trim());
    return end ? new Date(plain.getTime() + (dateOnly ? 86_399_999 : 999)) : plain;
  }
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)
    ? new Date(text)
    : null;
  if (iso && !Number.isNaN(iso.getTime())) return iso;
  throw new AppError('INVALID_REQUEST', `${field} must be yyyy-MM-dd HH:mm:ss`, [
    { field, issue: 'bad date' },
  ]);
}

/** The narrowest of the bounds given (`pick` keeps the narrower of two), or undefined. */
function narrowest(bounds: (Date | undefined)[], pick: (a: Date, b: Date) => Date): Date | undefined {
  return bounds
    .filter((d): d is Date => d !== undefined)
    .reduce<Date | undefined>((a, b) => (a ? pick(a, b) : b), undefined);
}

export function createTopupReports(deps: { repository: TopupsRepository }) {
  const { repository: repo } = deps;
  return {
    /** One page of the caller's top-ups, filtered and sorted (default: newest first). */
    async list(
      principal: Principal,
      q: Static<typeof ReportQuery>,
      page: { limit: number; offset: number },
      /** Filters the spec's report does not have (the dashboard's). */
      extra: { status?: string } = {},
    ): Promise<{ rows: TopupRow[]; total: number }> {
      // both pairs (startDate/endDate, startTime/endTime) may be given; the narrower bound of each side wins
      const from = [bound(q.startDate, 'startDate', false), bound(q.startTime, 'startTime', false)];
      const to = [bound(q.endDate, 'endDate', true), bound(q.endTime, 'endTime', true)];
      const { rows, total } = await repo.report(
        principal.accountId,
        principal.environment,
        {
          countryCode: q.countryCode,
          customIdentifier: q.customIdentifier,
          operatorId: q.operatorId,
          operatorName: q.operatorName,
          status: extra.status,
          from: narrowest(from, (a, b) => (a > b ? a : b)),
          to: narrowest(to, (a, b) => (a < b ? a : b)),
          sortBy: q.sortBy ?? 'transactionDate',
          sortOrder: q.sortOrder ?? 'desc',
        },
        page,
      );
      return { rows, total };
    },

    async get(principal: Principal, transactionId: number): Promise<TopupRow> {
      const row = await repo.find(principal.accountId, principal.environment, transactionId);
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No top-up transaction ${transactionId}`);
      return row;
    },
  };
}

export type TopupReports = ReturnType<typeof createTopupReports>;

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { AppError } from '../../http/error-codes.ts';
import { pagedWrapper, pagingQuery, toLimitOffset } from '../../http/paging.ts';
import { principalOf } from '../../http/request-context.ts';
import { parseDateTime } from '../../lib/time-format.ts';
import { Paged, TopupTransaction } from './topup-schemas.ts';
import type { TopupService } from './topup-service.ts';
import { topupView } from './topup-view.ts';
import type { TopupsRepository } from './topups-repository.ts';

/** POST /topups (scope `send-topups`) and the transaction reports (`read-topups-history`). */
const Phone = Type.Object({
  countryCode: Type.String({ minLength: 2, maxLength: 2 }),
  number: Type.String({ minLength: 1, maxLength: 40 }),
});
// `amount` is checked by parseAmount, so a non-number answers INVALID_AMOUNT, not INVALID_REQUEST.
const TopupBody = Type.Object({
  operatorId: Type.Integer({ minimum: 0 }),
  amount: Type.Unknown({ description: 'number' }),
  useLocalAmount: Type.Optional(Type.Boolean()),
  customIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 150 })),
  recipientPhone: Type.Optional(Phone),
  recipientEmail: Type.Optional(Type.String({ maxLength: 254 })),
  senderPhone: Type.Optional(Phone),
});

const ReportQuery = Type.Object({
  ...pagingQuery(100),
  countryCode: Type.Optional(Type.String({ maxLength: 3 })),
  customIdentifier: Type.Optional(Type.String({ maxLength: 150 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 0 })),
  operatorName: Type.Optional(Type.String({ maxLength: 200 })),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  startTime: Type.Optional(Type.String()),
  endTime: Type.Optional(Type.String()),
  sortBy: Type.Optional(
    Type.Union([
      Type.Literal('transactionDate'),
      Type.Literal('transactionId'),
      Type.Literal('requestedAmount'),
    ]),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

/**
 * A report bound: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` (an end bound includes its whole second or day)
 * or ISO 8601 with a zone. Anything else is a 400 naming the parameter.
 */
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

const baseUrlOf = (request: FastifyRequest) => request.base?.url ?? '';

export function transactionRoutes(app: FastifyInstance, service: TopupService, repo: TopupsRepository) {
  app.post(
    '/topups',
    {
      schema: { body: TopupBody, response: { 200: TopupTransaction } },
      config: { access: { scope: 'send-topups' } },
    },
    async (request) => {
      const row = await service.send(principalOf(request), request.body as Static<typeof TopupBody>);
      return topupView(row, baseUrlOf(request));
    },
  );

  app.get(
    '/topups/reports/transactions',
    {
      schema: { querystring: ReportQuery, response: { 200: Paged(TopupTransaction) } },
      config: { access: { scope: 'read-topups-history' } },
    },
    async (request) => {
      const q = request.query as Static<typeof ReportQuery>;
      const p = principalOf(request);
      const page = toLimitOffset(q, 100);
      const from = [bound(q.startDate, 'startDate', false), bound(q.startTime, 'startTime', false)];
      const to = [bound(q.endDate, 'endDate', true), bound(q.endTime, 'endTime', true)];
      const latest = (ds: (Date | undefined)[], pick: (a: Date, b: Date) => Date) =>
        ds
          .filter((d): d is Date => d !== undefined)
          .reduce<Date | undefined>((a, b) => (a ? pick(a, b) : b), undefined);
      const { rows, total } = await repo.report(
        p.accountId,
        p.environment,
        {
          countryCode: q.countryCode,
          customIdentifier: q.customIdentifier,
          operatorId: q.operatorId,
          operatorName: q.operatorName,
          // both pairs may be given; the narrower bound of each side wins
          from: latest(from, (a, b) => (a > b ? a : b)),
          to: latest(to, (a, b) => (a < b ? a : b)),
          sortBy: q.sortBy ?? 'transactionDate',
          sortOrder: q.sortOrder ?? 'desc',
        },
        page,
      );
      return pagedWrapper(
        rows.map((r) => topupView(r, baseUrlOf(request))),
        page,
        total,
      );
    },
  );

  app.get(
    '/topups/reports/transactions/:transactionId',
    {
      schema: {
        params: Type.Object({ transactionId: Type.Integer({ minimum: 0 }) }),
        response: { 200: TopupTransaction },
      },
      config: { access: { scope: 'read-topups-history' } },
    },
    async (request) => {
      const { transactionId } = request.params as { transactionId: number };
      const p = principalOf(request);
      const row = await repo.find(p.accountId, p.environment, transactionId);
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `No top-up transaction ${transactionId}`);
      return topupView(row, baseUrlOf(request));
    },
  );
}

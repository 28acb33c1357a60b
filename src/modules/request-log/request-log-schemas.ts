import { Type } from 'typebox';

/** The request log's JSON (the dashboard's page, the console's view of an account): query and answer. */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateText = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (UTC); an end date takes in its whole day',
});

export const RequestLogQuery = Type.Object({
  environment: Type.Union([Type.Literal('live'), Type.Literal('sandbox')]),
  status: Type.Optional(
    Type.String({
      pattern: '^(failed|[1-5]xx|[1-5]\\d\\d)$',
      description: '`failed` (400 and above), a class (`4xx`, `5xx`, `2xx`) or one status (`404`)',
    }),
  ),
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'a part of the path' })),
  clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(DateText),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

export const LoggedRequest = Type.Object({
  requestId: Type.String({ description: 'the X-Request-Id of the answer' }),
  at: Type.String({ description: 'when it came in: yyyy-MM-dd HH:mm:ss.SSS (UTC)' }),
  environment: Type.Union([Type.Literal('live'), Type.Literal('sandbox')]),
  product: Type.Union([Type.Literal('giftcards'), Type.Literal('topups'), Type.Literal('auth')]),
  clientId: Type.String(),
  method: Type.String(),
  path: Type.String({ description: 'as sent, with secrets masked' }),
  status: Type.Integer(),
  latencyMs: Type.Number({ description: 'time to answer, milliseconds' }),
  requestBody: Nullable(
    Type.String({ description: 'failed requests only: the body sent, secrets masked (JSON)' }),
  ),
  responseBody: Nullable(Type.String({ description: 'failed requests only: the error answered (JSON)' })),
});

export const RequestLogPage = Type.Object({
  items: Type.Array(LoggedRequest),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
  retentionDays: Type.Integer({ description: 'how many days requests are kept (REQUEST_LOG_DAYS)' }),
});

import { Type } from 'typebox';

/** The audit log's JSON on the admin API and the console: one schema per answer and query. */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Channel = Type.Union([Type.Literal('admin'), Type.Literal('console'), Type.Literal('dashboard')]);
const DateText = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$',
  description: 'yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (UTC)',
});

export const AuditEntry = Type.Object({
  auditId: Type.Integer({ description: 'its place in the chain: 1, 2, 3, ... without gaps' }),
  at: Type.String({ description: 'yyyy-MM-dd HH:mm:ss (UTC)' }),
  channel: Channel,
  actorKind: Type.Union([
    Type.Literal('admin-key'),
    Type.Literal('operator'),
    Type.Literal('customer'),
    Type.Literal('anonymous', {
      description: "nobody signed in: a page's public action (a password reset asked for)",
    }),
  ]),
  actorId: Type.String({
    description: "the admin key's fingerprint (first 12 hex digits of its SHA-256), or the web user's id",
  }),
  actor: Type.String({ description: "`admin key <fingerprint>`, or the user's e-mail" }),
  accountId: Nullable(Type.Integer()),
  action: Type.String({ description: 'what was done: account.fund, credential.revoke, ...' }),
  target: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'what was asked, secrets masked' }),
  before: Type.Unknown({ description: 'the state before the change, where there is one (else null)' }),
  after: Type.Unknown({ description: 'the state after the change, secrets masked (else null)' }),
  ip: Nullable(Type.String()),
  requestId: Nullable(Type.String()),
  hash: Type.String({ description: "SHA-256 of the previous line's hash and this line's content" }),
});

export const AuditQuery = Type.Object({
  channel: Type.Optional(Channel),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'an actor id or e-mail' })),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'an action, or a prefix ending in a dot (`account.`)',
    }),
  ),
  accountId: Type.Optional(Type.Integer({ minimum: 1 })),
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(DateText),
});

export const AuditPage = Type.Object({
  items: Type.Array(AuditEntry),
  hasMore: Type.Boolean(),
  page: Type.Integer(),
  size: Type.Integer(),
});

export const AuditVerification = Type.Object({
  ok: Type.Boolean({ description: 'no line was removed or edited' }),
  lines: Type.Integer(),
  head: Type.Object(
    { auditId: Type.Integer(), hash: Type.String() },
    { description: 'the last line appended and its hash: note it elsewhere to detect a rewritten chain' },
  ),
  problems: Type.Array(Type.Object({ auditId: Type.Integer(), problem: Type.String() })),
  checkedAt: Type.String(),
});

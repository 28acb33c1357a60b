import { AppError } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { toCsv } from '../../lib/csv.ts';
import { maskSecretFields, storableText } from '../../lib/log-redaction.ts';
import { formatDateTime, timeRange } from '../../lib/time-format.ts';
import type { AuditQuery, AuditRepository, AuditRow } from './audit-repository.ts';
import { AuditEntry } from './audit-schemas.ts';
import type { AuditActorKind, AuditChannel } from './audit-tables.ts';

/**
 * The audit log of every change, whichever channel made it (the admin API and so the CLI, the
 * console, the dashboard): who, what, on what, the state before and after, when, from where. Lines
 * are only ever added, each chained to the one before by a hash (migration 0022), so `verify` finds a
 * line removed or edited afterwards. Lines are written by each channel's hook (audit-hook.ts), not by
 * handlers; `record` is for that hook.
 *
 * @example
 * await audit.record({ channel: 'admin', actor: { kind: 'admin-key', id: '3f9a0c1d2e4b', label: 'admin key 3f9a0c1d2e4b' },
 *   action: 'account.fund', target: 'account 2', accountId: 2, details: { amount: 50 }, ip: '127.0.0.1' });
 * (await audit.verify()).ok; // true
 */
export interface AuditActor {
  kind: AuditActorKind;
  /** an admin key's fingerprint (never the key), or a web user's id */
  id: string;
  /** what people read: `admin key 3f9a0c1d2e4b`, or the user's e-mail */
  label: string;
}

export interface AuditLine {
  channel: AuditChannel;
  actor: AuditActor;
  action: string;
  target?: string | null;
  accountId?: number | null;
  /** what was asked; masked here (lib/log-redaction.ts) before it is stored */
  details?: unknown;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  requestId?: string | null;
}

export interface AuditFilter {
  channel?: AuditChannel;
  actor?: string;
  action?: string;
  accountId?: number;
  startDate?: string;
  endDate?: string;
}

/** A masked value as stored: JSON text, or a note of its size when it is too large to keep. */
const MAX_JSON = 8192;
function stored(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(maskSecretFields(value));
  return text.length <= MAX_JSON ? text : JSON.stringify({ omitted: `${text.length} characters` });
}

const GENESIS = '0'.repeat(64);
const CSV_LIMIT = 100_000;

function view(r: AuditRow) {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : (v ?? null));
  return {
    auditId: Number(r.id),
    at: formatDateTime(r.at),
    channel: r.channel,
    actorKind: r.actor_kind,
    actorId: r.actor_id,
    actor: r.actor,
    accountId: r.account_id === null ? null : Number(r.account_id),
    action: r.action,
    target: r.target,
    details: (json(r.details) ?? {}) as Record<string, unknown>,
    before: json(r.before) as unknown,
    after: json(r.after) as unknown,
    ip: r.ip,
    requestId: r.request_id,
    hash: r.hash,
  };
}
export type AuditEntryView = ReturnType<typeof view>;

export function createAuditLog(deps: { repository: AuditRepository; clock: Clock }) {
  const { repository, clock } = deps;

  const queryOf = (f: AuditFilter): AuditQuery => {
    let range: { from?: Date; to?: Date };
    try {
      range = timeRange(f.startDate, f.endDate);
    } catch (error) {
      throw new AppError('INVALID_REQUEST', (error as Error).message);
    }
    return { channel: f.channel, actor: f.actor, action: f.action, accountId: f.accountId, ...range };
  };

  return {
    async record(line: AuditLine): Promise<void> {
      await repository.append({
        at: clock.now(),
        channel: line.channel,
        actorKind: line.actor.kind,
        actorId: storableText(line.actor.id),
        actor: storableText(line.actor.label),
        accountId: line.accountId ?? null,
        action: storableText(line.action),
        target: line.target == null ? null : storableText(line.target),
        details: stored(line.details ?? {}) ?? '{}',
        before: stored(line.before),
        after: stored(line.after),
        ip: line.ip ?? null,
        requestId: line.requestId ?? null,
      });
    },

    /** One page, newest first; `hasMore` when a next page has lines. */
    async list(filter: AuditFilter, page: { limit: number; offset: number }) {
      const rows = await repository.list(queryOf(filter), { limit: page.limit + 1, offset: page.offset });
      return { items: rows.slice(0, page.limit).map(view), hasMore: rows.length > page.limit };
    },

    /** The filtered lines, newest first, as CSV (at most 100 000). */
    async csv(filter: AuditFilter): Promise<string> {
      const rows = (await repository.list(queryOf(filter), { limit: CSV_LIMIT, offset: 0 })).map(view);
      // the CSV's columns are the entry's fields as the API answers them, in the schema's order
      const head = Object.keys(AuditEntry.properties) as (keyof AuditEntryView)[];
      return toCsv(
        head,
        rows.map((r) => head.map((k) => r[k])),
      );
    },

    /**
     * Walks the whole chain: every line's hash against its content and the line before it, and the
     * head against the last line. `ok` when nothing was removed or edited; else each problem in
     * words (at most 100). `head` is the hash to note elsewhere: a chain rewritten from some line on,
     * head included, can only be told from the genuine one by a hash noted before.
     */
    async verify() {
      const [breaks, tip] = await Promise.all([repository.breaks(100), repository.tip()]);
      const problems: { auditId: number; problem: string }[] = [];
      for (const b of breaks) {
        const expectedId = (b.previousId ?? 0) + 1;
        if (b.id !== expectedId) {
          problems.push({
            auditId: b.id,
            problem:
              b.id === expectedId + 1
                ? `line ${expectedId} was removed`
                : `lines ${expectedId} to ${b.id - 1} were removed`,
          });
        } else if (b.prevHash !== (b.previousHash ?? GENESIS)) {
          problems.push({
            auditId: b.id,
            problem: `line ${b.id} does not follow line ${b.previousId ?? 'none'}: its previous hash is not that line's hash (a line was replaced)`,
          });
        }
        if (b.computed !== b.hash) {
          problems.push({
            auditId: b.id,
            problem: `line ${b.id} was edited: its content no longer gives its hash`,
          });
        }
      }
      const lastId = tip.last?.id ?? 0;
      if (tip.head.lastId > lastId) {
        problems.push({
          auditId: tip.head.lastId,
          problem:
            tip.head.lastId === lastId + 1
              ? `the last line (${tip.head.lastId}) was removed`
              : `the last lines (${lastId + 1} to ${tip.head.lastId}) were removed`,
        });
      } else if (tip.head.lastId < lastId) {
        problems.push({
          auditId: lastId,
          problem: `lines ${tip.head.lastId + 1} to ${lastId} were added outside the chain (after its head)`,
        });
      } else if (tip.head.hash !== (tip.last?.hash ?? GENESIS)) {
        problems.push({
          auditId: lastId,
          problem: `the last line (${lastId}) is not the line the chain head names (it was replaced)`,
        });
      }
      return {
        ok: problems.length === 0,
        lines: tip.lines,
        head: { auditId: tip.head.lastId, hash: tip.head.hash },
        problems: problems.slice(0, 100),
        checkedAt: formatDateTime(clock.now()),
      };
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import { formatDateTime } from '../../../lib/time-format.ts';
import { withWebTables } from './web-tables.ts';

/**
 * The audit log of the operator's changes: every console mutation and every user or operator made
 * through the admin API, with who (the operator's e-mail, or `admin key`), what, on what, when and
 * from where (the client's IP). Rows are only ever added.
 *
 * @example
 * await audit.record({ userId: 1, actor: 'ops@example.com', action: 'account.fund', target: 'account 2',
 *   details: { amount: 50 }, ip: '127.0.0.1' });
 */
export interface AuditRecord {
  userId: number | null;
  actor: string;
  action: string;
  target: string | null;
  details?: Record<string, unknown>;
  ip: string | null;
}

export function createAuditLog(appDb: Kysely<Database>, clock: Clock) {
  const db = withWebTables(appDb);
  return {
    async record(r: AuditRecord): Promise<void> {
      await db
        .insertInto('web_audit_log')
        .values({
          user_id: r.userId,
          actor: r.actor,
          action: r.action,
          target: r.target,
          details: JSON.stringify(r.details ?? {}),
          ip: r.ip,
          at: clock.now(),
        })
        .execute();
    },

    /** Newest first. */
    async list(page: { limit: number; offset: number }) {
      const rows = await db
        .selectFrom('web_audit_log')
        .select(['id', 'actor', 'action', 'target', 'details', 'ip', 'at'])
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map((r) => ({
        auditId: Number(r.id),
        actor: r.actor,
        action: r.action,
        target: r.target,
        details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<
          string,
          unknown
        >,
        ip: r.ip,
        at: formatDateTime(r.at),
      }));
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

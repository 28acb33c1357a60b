import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type AuditChannel, type AuditTables, withAuditTables } from './audit-tables.ts';

/**
 * The only SQL of the audit log. Appending is one INSERT: the chain trigger of migration 0022 numbers
 * the line, links it to the head (locked for the rest of the transaction) and hashes it; so nothing
 * here computes a hash, and nothing else can append a line outside the chain.
 */
export interface AuditRowInput {
  at: Date;
  channel: AuditChannel;
  actorKind: 'admin-key' | 'operator' | 'customer' | 'anonymous';
  actorId: string;
  actor: string;
  accountId: number | null;
  action: string;
  target: string | null;
  /** JSON text (already masked) */
  details: string;
  before: string | null;
  after: string | null;
  ip: string | null;
  requestId: string | null;
}

export interface AuditQuery {
  channel?: AuditChannel;
  /** the actor's id (an admin key's fingerprint, a web user's id) or e-mail */
  actor?: string;
  /** an action, or a prefix of one ending in a dot (`account.`) */
  action?: string;
  accountId?: number;
  from?: Date;
  to?: Date;
}

/** A line that does not hold (see `verify`). */
export interface ChainBreak {
  id: number;
  hash: string;
  computed: string;
  prevHash: string;
  previousId: number | null;
  previousHash: string | null;
}

const COLUMNS = [
  'id',
  'at',
  'channel',
  'actor_kind',
  'actor_id',
  'actor',
  'account_id',
  'action',
  'target',
  'details',
  'before',
  'after',
  'ip',
  'request_id',
  'hash',
] as const;

export function auditRepository(appDb: Kysely<Database>) {
  const db = withAuditTables(appDb);
  type Db = Database & AuditTables;

  function filtered<O>(q: SelectQueryBuilder<Db, 'audit_log', O>, f: AuditQuery) {
    let out = q;
    if (f.channel) out = out.where('channel', '=', f.channel);
    if (f.actor) out = out.where((eb) => eb.or([eb('actor_id', '=', f.actor!), eb('actor', '=', f.actor!)]));
    if (f.action) {
      out = f.action.endsWith('.')
        ? out.where(sql<boolean>`starts_with(action, ${f.action})`)
        : out.where('action', '=', f.action);
    }
    if (f.accountId !== undefined) out = out.where('account_id', '=', f.accountId);
    if (f.from) out = out.where('at', '>=', f.from);
    if (f.to) out = out.where('at', '<', f.to);
    return out;
  }

  return {
    async append(row: AuditRowInput): Promise<void> {
      await db
        .insertInto('audit_log')
        .values({
          at: row.at,
          channel: row.channel,
          actor_kind: row.actorKind,
          actor_id: row.actorId,
          actor: row.actor,
          account_id: row.accountId,
          action: row.action,
          target: row.target,
          details: row.details,
          before: row.before,
          after: row.after,
          ip: row.ip,
          request_id: row.requestId,
        })
        .execute();
    },

    /** Newest first. */
    list(f: AuditQuery, page: { limit: number; offset: number }) {
      return filtered(db.selectFrom('audit_log').select(COLUMNS), f)
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    /**
     * Every line whose hash is not the hash of its previous hash and content (edited), whose id does
     * not follow the line before it (lines removed) or whose previous hash is not that line's hash
     * (the chain broken): the first `limit` of them, in chain order. One pass over the table.
     */
    async breaks(limit: number): Promise<ChainBreak[]> {
      const { rows } = await sql<{
        id: string;
        hash: string;
        computed: string;
        prev_hash: string;
        previous_id: string | null;
        previous_hash: string | null;
      }>`
        SELECT id, hash, computed, prev_hash, previous_id, previous_hash FROM (
          SELECT a.id, a.hash, a.prev_hash, audit_line_hash(a.prev_hash, a) AS computed,
                 lag(a.id) OVER (ORDER BY a.id) AS previous_id,
                 lag(a.hash) OVER (ORDER BY a.id) AS previous_hash
          FROM audit_log a
        ) chain
        WHERE computed <> hash
           OR id <> COALESCE(previous_id, 0) + 1
           OR prev_hash <> COALESCE(previous_hash, repeat('0', 64))
        ORDER BY id
        LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({
        id: Number(r.id),
        hash: r.hash,
        computed: r.computed,
        prevHash: r.prev_hash,
        previousId: r.previous_id === null ? null : Number(r.previous_id),
        previousHash: r.previous_hash,
      }));
    },

    /** How many lines, the last one, and the chain head (which names the last line appended). */
    async tip() {
      const [counted, last, head] = await Promise.all([
        db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
        db.selectFrom('audit_log').select(['id', 'hash']).orderBy('id', 'desc').limit(1).executeTakeFirst(),
        db.selectFrom('audit_chain_head').select(['last_id', 'hash']).executeTakeFirstOrThrow(),
      ]);
      return {
        lines: Number(counted.n),
        last: last ? { id: Number(last.id), hash: last.hash } : null,
        head: { lastId: Number(head.last_id), hash: head.hash },
      };
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
export type AuditRow = Awaited<ReturnType<AuditRepository['list']>>[number];

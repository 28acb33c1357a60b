import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The tables of migration 0022 as Kysely sees them: the audit log and its chain head. The id, the
 * previous hash and the hash are the chain trigger's to write, never the application's.
 */
export type AuditChannel = 'admin' | 'console' | 'dashboard';
export type AuditActorKind = 'admin-key' | 'operator' | 'customer' | 'anonymous';

type ByTrigger<T> = ColumnType<T, never, never>;
type Json = ColumnType<unknown, string | null, never>;

export interface AuditLogTable {
  id: ByTrigger<string | number>;
  at: ColumnType<Date, Date, never>;
  channel: ColumnType<AuditChannel, AuditChannel, never>;
  actor_kind: ColumnType<AuditActorKind, AuditActorKind, never>;
  actor_id: ColumnType<string, string, never>;
  actor: ColumnType<string, string, never>;
  account_id: ColumnType<string | number | null, number | null, never>;
  action: ColumnType<string, string, never>;
  target: ColumnType<string | null, string | null, never>;
  details: ColumnType<unknown, string, never>;
  before: Json;
  after: Json;
  ip: ColumnType<string | null, string | null, never>;
  request_id: ColumnType<string | null, string | null, never>;
  prev_hash: ByTrigger<string>;
  hash: ByTrigger<string>;
}

export interface AuditChainHeadTable {
  one: ByTrigger<boolean>;
  last_id: ByTrigger<string | number>;
  hash: ByTrigger<string>;
}

export type AuditTables = { audit_log: AuditLogTable; audit_chain_head: AuditChainHeadTable };

export function withAuditTables(db: Kysely<Database>): Kysely<Database & AuditTables> {
  return db.withTables<AuditTables>();
}

/**
 * The audit log (issue 28): every change made through the admin API (and so the CLI), the console
 * and the dashboard, one line each, append-only and hash-chained (migration 0022). Each channel
 * writes its lines from one hook (audit-hook.ts) that every mutating route passes through.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { createAuditLog } from './audit-log.ts';
import { auditRepository } from './audit-repository.ts';

export {
  type AuditAnswer,
  type AuditChannelOptions,
  type AuditDescription,
  type AuditedRequest,
  installAuditHook,
  params,
  routeOf,
} from './audit-hook.ts';
export type { AuditActor, AuditEntryView, AuditFilter, AuditLine, AuditLog } from './audit-log.ts';
export { auditAdminRoutes } from './audit-routes.ts';
export { AuditEntry, AuditPage, AuditQuery, AuditVerification } from './audit-schemas.ts';
export type { AuditChannel } from './audit-tables.ts';

/** The audit log over the app's database. */
export function createAudit(db: Kysely<Database>, clock: Clock) {
  return createAuditLog({ repository: auditRepository(db), clock });
}

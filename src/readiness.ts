import { sql } from 'kysely';
import type { Db } from './db/database.ts';
import { createOutageMonitor, type OutageMonitor } from './db/outage-monitor.ts';
import { describeInfrastructureError, isInfrastructureError } from './errors/infrastructure-errors.ts';

/**
 * What `/ready` answers (readiness, for load balancers and Kubernetes): the database answers within
 * `timeoutMs` (1 s), every migration this code knows is applied, the background workers run, and
 * the process is not shutting down. `/health` (liveness) never asks any of this.
 *
 * @example
 * const readiness = createReadiness({ db, migrations: ['0001', ...], workers: { topups: worker } });
 * const report = await readiness.check(); // { ready: false, reason: 'database: ...', checks }
 */
export type CheckResult = 'ok' | string;

export interface ReadinessReport {
  ready: boolean;
  reason: string | null;
  checks: { database: CheckResult; migrations: CheckResult; workers: CheckResult; shutdown: CheckResult };
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From the first shutdown signal on, the process answers not ready. */
  setStopping(): void;
  /** Logs an outage once; fed by the error handler and the workers. */
  outage: OutageMonitor;
}

export const READINESS_TIMEOUT_MS = 1000;

export function createReadiness(o: {
  db: Db;
  migrations: string[];
  workers: Record<string, { isRunning(): boolean }>;
  timeoutMs?: number;
}): Readiness {
  const timeoutMs = o.timeoutMs ?? READINESS_TIMEOUT_MS;
  let stopping = false;

  /** The applied migration versions, or a rejection within `timeoutMs`. */
  async function appliedMigrations(): Promise<Set<string>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const query = sql<{ version: string }>`SELECT version FROM schema_migrations`.execute(o.db.kysely);
      query.catch(() => undefined); // its failure after the timeout is of no interest
      const result = await Promise.race([query, timeout]);
      return new Set(result.rows.map((r) => r.version));
    } finally {
      clearTimeout(timer);
    }
  }

  const outage = createOutageMonitor({ check: appliedMigrations });

  return {
    outage,
    setStopping() {
      stopping = true;
    },
    async check() {
      const checks: ReadinessReport['checks'] = {
        database: 'ok',
        migrations: 'ok',
        workers: 'ok',
        shutdown: stopping ? 'shutting down' : 'ok',
      };
      try {
        const applied = await appliedMigrations();
        outage.succeeded();
        const missing = o.migrations.filter((v) => !applied.has(v));
        if (missing.length > 0) checks.migrations = `not applied: ${missing.join(', ')}`;
      } catch (error) {
        if (isInfrastructureError(error)) outage.failed(describeInfrastructureError(error));
        checks.database = `unreachable: ${describeInfrastructureError(error)}`;
        checks.migrations = 'unknown';
      }
      const stopped = Object.entries(o.workers)
        .filter(([, w]) => !w.isRunning())
        .map(([name]) => name);
      if (stopped.length > 0) checks.workers = `not running: ${stopped.join(', ')}`;
      const failing = Object.entries(checks).filter(([, v]) => v !== 'ok');
      return {
        ready: failing.length === 0,
        reason: failing.length === 0 ? null : failing.map(([k, v]) => `${k} ${v}`).join('; '),
        checks,
      };
    },
  };
}

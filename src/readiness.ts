import { statfs } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Db } from './db/database.ts';
import { createOutageMonitor, type OutageMonitor } from './db/outage-monitor.ts';
import {
  describeInfrastructureError,
  isDiskFull,
  isInfrastructureError,
} from './errors/infrastructure-errors.ts';

/**
 * What `/ready` answers (readiness, for load balancers and Kubernetes): the database answers within
 * `timeoutMs` (1 s), every migration this code knows is applied, the background workers run, the
 * process is not shutting down, and the disk takes writes: the embedded database's disk has room
 * (`DISK_LOW_BYTES`), and no write was refused for lack of space in the last `DISK_FULL_HOLD_MS`
 * (PostgreSQL's disk is its server's, known here only by the refusals; the embedded database's
 * refusals are forgotten as soon as its disk has twice `DISK_LOW_BYTES` free again). `/health`
 * (liveness) never asks any of this.
 *
 * @example
 * const readiness = createReadiness({ db, migrations: ['0001', ...], workers: { topups: worker } });
 * const report = await readiness.check(); // { ready: false, reason: 'database: ...', checks }
 */
export type CheckResult = 'ok' | string;

export interface ReadinessReport {
  ready: boolean;
  reason: string | null;
  checks: {
    database: CheckResult;
    migrations: CheckResult;
    workers: CheckResult;
    shutdown: CheckResult;
    disk: CheckResult;
  };
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From the first shutdown signal on, the process answers not ready. */
  setStopping(): void;
  /** Logs an outage once; fed by the error handler and the workers. */
  outage: OutageMonitor;
  /**
   * An infrastructure error met by the error handler or a worker: a full disk marks the disk check
   * (and tells `onDiskFull`, at most once per `DISK_FULL_HOLD_MS`); anything else goes to the outage monitor.
   */
  failed(error: unknown): void;
  onDiskFull(listener: (reason: string) => void): void;
}

export const READINESS_TIMEOUT_MS = 1000;
/** Below this much free space on the embedded database's disk, `/ready` says the disk is full. */
export const DISK_LOW_BYTES = 32 * 1024 * 1024;
/** How long a write refused for lack of space keeps `/ready` at "disk full". */
export const DISK_FULL_HOLD_MS = 30_000;

export function createReadiness(o: {
  db: Db;
  migrations: string[];
  workers: Record<string, { isRunning(): boolean }>;
  timeoutMs?: number;
  /** The directory the embedded database writes to (its free space is checked); null on PostgreSQL. */
  dataDir?: string | null;
}): Readiness {
  const timeoutMs = o.timeoutMs ?? READINESS_TIMEOUT_MS;
  let stopping = false;
  let diskFull: { at: number; reason: string } | null = null;
  const diskListeners: Array<(reason: string) => void> = [];

  async function diskCheck(): Promise<CheckResult> {
    const refused = diskFull && Date.now() - diskFull.at < DISK_FULL_HOLD_MS ? diskFull : null;
    // PostgreSQL's disk is its server's: known here only by its refusals, so they hold for a while
    if (!o.dataDir) return refused ? `full: ${refused.reason}` : 'ok';
    const free = await statfs(o.dataDir).then(
      (s) => s.bavail * s.bsize,
      () => null,
    );
    if (free !== null && free < DISK_LOW_BYTES)
      return `full: ${Math.round(free / 1024)} KB free on the disk of ${o.dataDir}`;
    // The embedded database's disk has room again (well above the low mark, so one write refused
    // just above it does not make /ready flap): ready at once, not when the hold runs out.
    if (refused && (free === null || free < 2 * DISK_LOW_BYTES)) return `full: ${refused.reason}`;
    return 'ok';
  }

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
    failed(error) {
      if (!isDiskFull(error)) {
        outage.failed(describeInfrastructureError(error));
        return;
      }
      const now = Date.now();
      const reason = describeInfrastructureError(error);
      const quiet = diskFull !== null && now - diskFull.at < DISK_FULL_HOLD_MS;
      diskFull = { at: now, reason };
      if (!quiet) for (const l of diskListeners) l(reason);
    },
    onDiskFull(listener) {
      diskListeners.push(listener);
    },
    async check() {
      const checks: ReadinessReport['checks'] = {
        database: 'ok',
        migrations: 'ok',
        workers: 'ok',
        shutdown: stopping ? 'shutting down' : 'ok',
        disk: await diskCheck(),
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

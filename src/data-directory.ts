import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { formatDateTime } from './lib/time-format.ts';
import { StartError } from './start-error.ts';

/**
 * What a start may do with the data directory (`DATA_DIR`): it holds the embedded database, the
 * development CA and the generated keys, and it belongs to one server at a time.
 *
 * - **The lock.** With the embedded database, `DATA_DIR/airgift.lock` (pid, host, when, and the
 *   process's start time) is created before anything in the directory is opened; a second start on
 *   the same directory says who holds it and exits. A lock whose process is gone (same host, no
 *   such pid, or a pid now used by another process) is stale and taken over. With PostgreSQL the
 *   servers of one deployment may share a data directory (its keys), so nothing is locked.
 * - **The keys** (`admin.key`, `token-signing.key`, `card-codes.key`, unless given in the
 *   environment) are generated only into a new installation (`lib/secret-files.ts`, runtime.ts).
 *
 * @example
 * lockDataDirectory('/var/lib/airgift'); // throws StartError when another server holds it
 */
export const LOCK_FILE = 'airgift.lock';

interface LockHolder {
  pid: number;
  host: string;
  since: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat), to tell a reused pid. */
  started: string | null;
}

/** Locks `dir` for this process until it exits; throws StartError when another live process holds it. */
export function lockDataDirectory(dir: string): void {
  const path = join(dir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    since: formatDateTime(new Date()),
    started: processStart(process.pid),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    // written whole under another name, then linked into place: the lock file is never half-written
    const scratch = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(scratch, `${JSON.stringify(me)}\n`, { mode: 0o600 });
    try {
      linkSync(scratch, path);
      process.once('exit', () => releaseIfMine(path));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(scratch);
    }
    const holder = readHolder(path);
    if (holder && isAlive(holder)) {
      throw new StartError(
        `${dir} is in use by another airgift: pid ${holder.pid} on ${holder.host}, since ${holder.since} ` +
          `(its lock: ${path}). The embedded database belongs to one server: stop that one first, or give ` +
          'this one another DATA_DIR (or PostgreSQL, DATABASE_URL, to run several).',
      );
    }
    // stale: its process is gone
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new StartError(`${path}: another start is taking the lock at this moment; try again`);
}

function releaseIfMine(path: string): void {
  if (readHolder(path)?.pid === process.pid) {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string'
      ? {
          pid: parsed.pid,
          host: parsed.host,
          since: String(parsed.since ?? '?'),
          started: parsed.started ?? null,
        }
      : null;
  } catch {
    return null; // unreadable: nobody can be shown to hold it
  }
}

function isAlive(holder: LockHolder): boolean {
  // Another host's process cannot be checked from here: the lock stands until removed by hand.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const started = processStart(holder.pid);
  return started === null || holder.started === null || started === holder.started;
}

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot), or null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

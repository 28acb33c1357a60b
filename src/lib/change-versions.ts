import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Shared state that servers keep in memory (verified tokens, accounts, prepared catalog answers) and
 * how a change of it reaches every server of a deployment: one counter per topic in the database
 * (`change_versions`, migration 0005). `changed(topic)` tells this process's listeners at once, then
 * bumps the counter; every process reads the counters every `pollMs` and tells its listeners when one
 * moved. So a change made through any server is seen by all within `pollMs` plus one query.
 *
 * A process whose last successful read is older than `staleAfterMs` (database unreachable, poller
 * stopped) is not `fresh()`: its caches must be bypassed, never trusted past the promise. Except
 * with `soleUser` (the embedded database, which one process only can open): every change is then
 * made by this process and told to its listeners at once, so the counters can hold no news and the
 * caches stay trusted however late the poll is. (A PGlite server at full load queues the poll behind
 * every request's statements on its one connection; past 800 ms the token cache was bypassed, every
 * request read its credential, and those reads kept the orders from forming batches.)
 *
 * @example
 * const changes = createChangeVersions(db);
 * changes.onChange('auth', () => tokens.clear());
 * await credentials.revoke(id);
 * await changes.changed('auth');   // this process at once, the others within ~200 ms
 */
export type ChangeTopic = 'auth' | 'catalog';

export interface ChangeVersions {
  changed(topic: ChangeTopic): Promise<void>;
  onChange(topic: ChangeTopic, listener: () => void): void;
  fresh(): boolean;
  stop(): void;
}

export function createChangeVersions(
  db: Kysely<Database>,
  options: { pollMs?: number; staleAfterMs?: number; soleUser?: boolean } = {},
): ChangeVersions {
  const pollMs = options.pollMs ?? 200;
  const staleAfterMs = options.staleAfterMs ?? 800;
  const listeners = new Map<string, Array<() => void>>();
  const known = new Map<string, number>();
  let lastRead = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const fire = (topic: string) => {
    for (const listener of listeners.get(topic) ?? []) listener();
  };

  async function poll() {
    timer = null;
    try {
      const rows = await db.selectFrom('change_versions').select(['topic', 'version']).execute();
      for (const { topic, version } of rows) {
        const before = known.get(topic);
        known.set(topic, Number(version));
        if (before !== undefined && before !== Number(version)) fire(topic);
      }
      lastRead = performance.now();
    } catch (error) {
      // A closed database ends the poller; anything else is tried again (fresh() says false meanwhile).
      if (/destroyed|closed|ended/i.test(String((error as Error)?.message))) stopped = true;
    }
    schedule();
  }

  function schedule() {
    if (stopped || timer) return;
    timer = setTimeout(poll, pollMs);
    timer.unref();
  }

  return {
    async changed(topic) {
      fire(topic);
      await db
        .updateTable('change_versions')
        .set((eb) => ({ version: eb('version', '+', 1), changed_at: new Date() }))
        .where('topic', '=', topic)
        .execute();
    },
    onChange(topic, listener) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
      if (!stopped && !timer && lastRead === Number.NEGATIVE_INFINITY) void poll();
    },
    fresh: () => !stopped && (options.soleUser || performance.now() - lastRead < staleAfterMs),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * A map whose entries are dropped all at once by `clear()` (on a change), safe against a load that
 * was in flight across the clear: its result is returned but not kept. Bounded: past `maxEntries` it
 * starts over.
 */
export class ClearableCache<V> {
  private map = new Map<string, V>();
  private generation = 0;

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  /** A ticket taken before loading; `set` keeps the value only if no clear happened since. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, value: V, ticket: number) {
    if (ticket !== this.generation) return;
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, value);
  }

  delete(key: string) {
    this.map.delete(key);
  }

  clear() {
    this.generation++;
    this.map.clear();
  }

  get size() {
    return this.map.size;
  }
}

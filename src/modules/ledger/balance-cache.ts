import type { Environment } from '../../db/schema.ts';
import { dec } from '../../lib/money.ts';
import type { BalanceView } from './ledger-types.ts';

/**
 * The balances a server keeps in memory, so `GET /accounts/balance` needs no database round trip,
 * and never answers a balance older than the promise (docs/decisions.md, "The balance read"):
 *
 * - **In this process, read-your-writes.** Every ledger write marks its balance *unsettled* before its
 *   statement runs; an unsettled balance is read from the database and not kept. The mark is lifted
 *   when the write's transaction has ended (the ledger's own transactions: orders, funding,
 *   adjustments), or, for a write inside a caller's transaction (a refund made by a state change), when
 *   the version that write made is heard of (its commit) — or after `unsettledMaxMs` (a rollback).
 * - **Across processes, within a second.** Each change of a balance row raises its version and is
 *   announced at commit on the channel `airgift_balances` (migration 0016); every process keeps the
 *   newest version it has heard of, without reading the row again. Nothing is served from memory
 *   while the listening connection is not known to be up (`healthy`): missed notifications are never
 *   a stale answer, only a database read.
 *
 * A version never goes back: a read of the database that finishes after a newer version was heard of
 * is not kept, nor one that started before this process's own write ended (`generation`).
 */
/** The channel migration 0016's trigger announces every change of a balance row on. */
export const BALANCE_CHANNEL = 'airgift_balances';

export interface CachedBalance extends BalanceView {
  version: number;
}

export type BalanceKey = { accountId: number; environment: Environment };

export interface BalanceCacheOptions {
  /** True while notifications are known to arrive (see db/notifications.ts). */
  healthy(): boolean;
  /** How long a write in someone else's transaction keeps its balance unsettled at most. */
  unsettledMaxMs?: number;
  maxEntries?: number;
}

const keyOf = (k: BalanceKey) => `${k.accountId}/${k.environment}`;

export function createBalanceCache(options: BalanceCacheOptions) {
  const unsettledMaxMs = options.unsettledMaxMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, CachedBalance>();
  /** Raised by every write of this process and by a reset: a read that started before is not kept. */
  const generations = new Map<string, number>();
  let resets = 0;
  /** Writes of this process not settled yet, per balance. */
  const unsettled = new Map<string, number>();
  /** Writes inside a caller's transaction: settled when their version is heard of. */
  const awaited = new Map<string, Array<{ version: number; timer: NodeJS.Timeout }>>();

  const generation = (key: string) => `${resets}:${generations.get(key) ?? 0}`;
  const bump = (key: string) => {
    generations.set(key, (generations.get(key) ?? 0) + 1);
    entries.delete(key);
  };

  function unsettle(key: string) {
    unsettled.set(key, (unsettled.get(key) ?? 0) + 1);
    bump(key);
  }

  function settle(key: string) {
    const left = (unsettled.get(key) ?? 1) - 1;
    if (left > 0) unsettled.set(key, left);
    else unsettled.delete(key);
    bump(key);
  }

  function heard(key: string, version: number) {
    const waiting = awaited.get(key);
    if (!waiting) return;
    const still = waiting.filter((w) => {
      if (w.version > version) return true;
      clearTimeout(w.timer);
      settle(key);
      return false;
    });
    if (still.length > 0) awaited.set(key, still);
    else awaited.delete(key);
  }

  return {
    /** The kept balance, or undefined: read the database (`ticket` first) and `keep` what it said. */
    get(k: BalanceKey): CachedBalance | undefined {
      const key = keyOf(k);
      if (!options.healthy() || unsettled.has(key)) return undefined;
      return entries.get(key);
    },

    /** Taken before reading the database; `keep` keeps the row only if nothing changed since. */
    ticket(k: BalanceKey): string {
      return generation(keyOf(k));
    },

    keep(k: BalanceKey, row: CachedBalance, ticket: string) {
      const key = keyOf(k);
      if (ticket !== generation(key) || unsettled.has(key) || !options.healthy()) return;
      const known = entries.get(key);
      if (known && known.version >= row.version) return;
      if (!known && entries.size >= maxEntries) entries.clear();
      entries.set(key, row);
    },

    /**
     * Runs a ledger write whose transaction ends when `work` settles (the ledger's own transactions):
     * the balance is unsettled from before the write until after its commit or rollback.
     */
    async around<T>(k: BalanceKey, work: () => Promise<T>): Promise<T> {
      const key = keyOf(k);
      unsettle(key);
      try {
        return await work();
      } finally {
        settle(key);
      }
    },

    /** A write inside a caller's transaction, about to run: unsettled until `wrote` is heard of. */
    writing(k: BalanceKey) {
      unsettle(keyOf(k));
    },

    /** The version the write of `writing` made (settled once it is announced), or null if it failed. */
    wrote(k: BalanceKey, version: number | null) {
      const key = keyOf(k);
      if (version === null) {
        settle(key);
        return;
      }
      // Announced already (the embedded database delivers with the statement's answer)?
      const known = entries.get(key);
      const timer = setTimeout(() => heard(key, Number.POSITIVE_INFINITY), unsettledMaxMs);
      timer.unref();
      awaited.set(key, [...(awaited.get(key) ?? []), { version, timer }]);
      if (known && known.version >= version) heard(key, known.version);
    },

    /** A notification of the channel `airgift_balances` (payload: see migration 0016). */
    announced(payload: string) {
      const [accountId, environment, version, balance, currencyCode, micros] = payload.split(' ');
      const key = `${Number(accountId)}/${environment}`;
      const v = Number(version);
      if (v < 0) {
        bump(key);
        return;
      }
      const known = entries.get(key);
      if (!known || known.version < v) {
        if (!known && entries.size >= maxEntries) entries.clear();
        entries.set(key, {
          balance: dec(balance),
          currencyCode,
          updatedAt: new Date(Number(micros) / 1000),
          version: v,
        });
      }
      heard(key, v);
    },

    /** Notifications may have been missed: nothing kept is trusted. */
    reset() {
      resets++;
      entries.clear();
    },

    get size() {
      return entries.size;
    },
  };
}

export type BalanceCache = ReturnType<typeof createBalanceCache>;

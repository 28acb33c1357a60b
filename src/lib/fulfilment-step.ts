import type { TransactionalFulfilmentProvider } from './fulfilment-provider.ts';

/**
 * One fulfilment step of an order, the same for both products, on the order's locked row:
 *
 * - a provider that works in the database or in memory (the sandbox, the code stock) takes its step
 *   in one transaction: lock, step, apply, commit;
 * - a provider whose step calls out over the network (`callsOut`: an upstream) never does so inside
 *   a transaction. The order is **claimed** (its next look moved to `now + claimMs`, past the
 *   longest step, so no worker takes it meanwhile) and committed; the step runs with the database
 *   itself (an upstream's call records commit on their own, before and after each call, and are
 *   safe to repeat: the customIdentifier sent is derived from our id); then its outcome is applied
 *   on the locked row, but only if the row is still as claimed: a step that outlived its claim (a
 *   stopped process, a peer slower than every timeout) leaves the order to whoever claimed it next,
 *   whose step finds the same facts at the upstream.
 *
 * Returns the step applied, or null when none was (the order was final, not due, or claimed again).
 *
 * @example
 * const step = await takeStep({ transaction, outside: db, lock, isOpen, ... });
 * if (step?.status === 'REFUSED') throw step.error;
 */
export interface StepOnRow<Row, Order, Step, Trx> {
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  /** The database itself: what a step that calls out works with. */
  outside: Trx;
  lock(trx: Trx): Promise<Row | undefined>;
  /** Whether the locked row takes a step now (not final; due, for the worker). */
  isOpen(row: Row, now: Date): boolean;
  orderOf(row: Row): Order;
  providerOf(row: Row): TransactionalFulfilmentProvider<never, Order, Step, Trx>;
  apply(trx: Trx, row: Row, step: Step): Promise<unknown>;
  /** Sets the locked row's next look to `until` (the claim). */
  claim(trx: Trx, row: Row, until: Date): Promise<void>;
  /** Whether the locked row is still open and claimed until `until` (nobody stepped it meanwhile). */
  isClaimed(row: Row, until: Date): boolean;
  /** How long a claim holds the order: longer than any step that calls out can take. */
  claimMs: number;
  now(): Date;
}

export async function takeStep<Row, Order, Step, Trx>(
  s: StepOnRow<Row, Order, Step, Trx>,
): Promise<Step | null> {
  type First =
    | { applied: Step }
    | { claimed: { provider: ReturnType<typeof s.providerOf>; order: Order; until: Date } }
    | null;
  const first = await s.transaction(async (trx): Promise<First> => {
    const row = await s.lock(trx);
    const now = s.now();
    if (row === undefined || !s.isOpen(row, now)) return null;
    const provider = s.providerOf(row);
    const order = s.orderOf(row);
    if (!(await provider.callsOut?.(order, trx))) {
      const step = await provider.step(order, now, trx);
      await s.apply(trx, row, step);
      return { applied: step };
    }
    const until = new Date(now.getTime() + s.claimMs);
    await s.claim(trx, row, until);
    return { claimed: { provider, order, until } };
  });
  if (first === null) return null;
  if ('applied' in first) return first.applied;
  const { provider, order, until } = first.claimed;
  const step = await provider.step(order, s.now(), s.outside);
  return s.transaction(async (trx): Promise<Step | null> => {
    const row = await s.lock(trx);
    if (row === undefined || !s.isClaimed(row, until)) return null;
    await s.apply(trx, row, step);
    return step;
  });
}

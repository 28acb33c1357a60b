import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppError } from '../errors/error-codes.ts';

/**
 * The one shape of a fulfilment provider, the edge between an accepted order and whoever fulfils it
 * (styleguide: edges behind an interface). Both products use it with their own order and step types
 * (`modules/giftcards/fulfilment/provider.ts`, `modules/topups/fulfilment/provider.ts`); the sandbox
 * simulators and the refusing provider of an environment with none configured implement it; providers
 * that need the database or call out (the gift card code stock, an upstream) implement the transactional form
 * below.
 *
 * A provider is asked twice:
 * - `accept(request)`, before anything is written: it throws an `AppError` when it cannot take the
 *   order now (out of stock, no provider, the operator unavailable), so nothing is debited;
 * - `step(order, now)`, for an accepted order: the outcome now, or when to look again. What a step
 *   does to the order's state and to the ledger is the product's state machine's business.
 *
 * @example
 * provider.accept({ productId: 22, preOrder: false }); // throws 422 UNPROCCESSABLE_ENTITY: out of stock
 * provider.step(order, clock.now());                   // { status: 'PROCESSING', nextCheckAt }
 */
export interface FulfilmentProvider<Request, Order, Step> {
  accept(request: Request): void;
  step(order: Order, now: Date): Step;
}

/**
 * The same shape for providers that read or write the database or call out (the gift card code
 * stock, an upstream service): `accept` may look things up; `reserve`, when a provider has it,
 * runs in the order's own database transaction right before its debit and the order's row are
 * written (what it writes refers to the order's id: such references are checked at the commit), so
 * what it takes (stock codes) commits or rolls back with the debit, and an `AppError` it throws
 * refuses the order with nothing debited; `step` runs in the step's transaction, on the order's
 * locked row. Synchronous providers (the sandbox simulators) fit it as they are.
 *
 * @example
 * await provider.accept({ productId: 1840, preOrder: false, quantity: 1, unitPrice: '25' });
 * await provider.reserve?.(trx, order);       // draws the codes, or throws 422: nothing debited
 * await provider.step(order, clock.now(), trx); // { status: 'SUCCESSFUL', cards }
 */
export interface TransactionalFulfilmentProvider<Request, Order, Step, Trx> {
  /** `trx`: the order's transaction, when asked again from inside it (`reserve`). */
  accept(request: Request, trx?: Trx): void | Promise<void>;
  /**
   * Takes what the order needs in its own transaction, before its row is written. Returns the step
   * when what it took settles the order there and then (the stock's codes: SUCCESSFUL with its
   * cards): the order's first step, its row written in that state; nothing when the order's first
   * step is still to be taken (after the commit). The orders of a batch call it in the same turn.
   */
  reserve?(trx: Trx, order: Order): Promise<Step | undefined>;
  step(order: Order, now: Date, trx: Trx): Step | Promise<Step>;
  /**
   * True when this order's step calls out over the network (an upstream). Such a step never runs
   * inside a transaction, where it would hold the row locks (and the embedded database's only
   * connection) for as long as the peer takes: the order is claimed on its locked row and committed,
   * `step` gets the database itself (its own records commit as it goes), and its outcome is applied
   * afterwards on the locked row (`stepOutsideTransaction` in `lib/fulfilment-step.ts`).
   */
  callsOut?(order: Order, trx: Trx): Promise<boolean>;
}

/** The transactional provider of an order on this database: what both products' providers are. */
export type OrderProvider<Request, Order, Step> = TransactionalFulfilmentProvider<
  Request,
  Order,
  Step,
  Kysely<Database>
>;

/**
 * A step refused by whoever fulfils the order (an upstream's refusal): the order is refunded
 * (REFUNDED), and the placing request answers `error` (its code and status); a later step just refunds.
 */
export interface RefusedStep {
  status: 'REFUSED';
  error: AppError;
}

/**
 * Thrown by a provider's `reserve` when what the order needs is held by other orders still in their
 * transactions (stock codes another order drew and may yet give back): the order path rolls the
 * order back and places it again a moment later (`RETRY_DELAYS_MS`), as it would have been had it
 * arrived after them; once those tries are spent, the order gets `refusal`.
 */
export class HeldByOrdersInFlight extends Error {
  constructor(readonly refusal: AppError) {
    super(`held by orders in flight: ${refusal.message}`);
  }
}

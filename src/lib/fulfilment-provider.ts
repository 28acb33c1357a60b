/**
 * The one shape of a fulfilment provider, the edge between an accepted order and whoever fulfils it
 * (styleguide: edges behind an interface). Both products use it with their own order and step types
 * (`modules/giftcards/fulfilment/provider.ts`, `modules/topups/fulfilment/provider.ts`); the sandbox
 * simulators, the refusing provider of an environment with none configured, and later upstream or
 * code-stock providers all implement it.
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

import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';
import type { AppError } from '../../errors/error-codes.ts';
import type { Dec } from '../../lib/money.ts';
import type { AccountRow } from '../accounts/index.ts';
import type { Principal } from '../auth/index.ts';
import type { PostingResult, RowWriter } from '../ledger/index.ts';

/**
 * What a product tells the one order path (`order-path.ts`) about its orders: only what differs
 * between gift cards (`giftcards/orders/order-adapter.ts`) and top-ups (`topups/orders/order-adapter.ts`).
 * The path calls these in a fixed order; each is small, and none opens a transaction or calls a
 * provider itself. The members are methods of one object made when the product is built: no
 * closure is made per order.
 */

/** The types one product's orders are made of. */
export interface OrderTypes {
  /** The request body (`POST /orders`, `POST /topups`). */
  body: unknown;
  /** The request once checked: its rules, and the (active) account it is placed for. */
  checked: {
    account: AccountRow;
    /** What the provider's `accept` is asked, before anything is written. */
    request: unknown;
    /** Orders with one tag never share a batch (top-ups: the recipient). */
    tag: string | undefined;
  };
  /** What it costs, worked out before the transaction. */
  price: unknown;
  /** The order as its provider sees it (`step`). */
  order: unknown;
  /** A provider's answer for one order; a REFUSED one carries the error its placing request answers. */
  step: { status: string; error?: AppError };
  /** What a first step taken from memory makes of the new order (see `firstStep`). */
  first: FirstStep;
  /** The rows written with the debit by the product's row writer. */
  rows: unknown;
  /** The stored row. */
  row: OrderRow;
  /** The resource answered. */
  view: unknown;
}

/** The columns the path reads on either product's row. */
export interface OrderRow {
  id: number;
  environment: Environment;
  status: string;
  next_check_at: Date | null;
}

export interface FirstStep {
  /** The step refunded the order at once: `refund` runs in the order's transaction. */
  refund: boolean;
  /** REFUSED: what the placing request answers once the order is written (refunded). */
  refusal: AppError | null;
}

/** A new order once its id is taken: one object per order, filled in as the path goes. */
export interface NewOrder<T extends OrderTypes> {
  id: number;
  checked: T['checked'];
  price: T['price'];
  now: Date;
  first: T['first'] | null;
  /** When the worker takes the order on should no step move it before (a first step that never ran). */
  rescueAt: Date;
}

/** The product's SQL the path's steps need (its repository). */
export interface OrderRows<Row> {
  /** The row, locked for the caller's transaction (`FOR UPDATE`). */
  lock(trx: Kysely<Database>, id: number): Promise<Row | undefined>;
  /** The locked row's next look moved to `until`: claimed by a step that calls out. */
  claim(trx: Kysely<Database>, id: number, until: Date): Promise<void>;
  /** The row by id, whoever's. */
  get(id: number): Promise<Row | undefined>;
  /** The ids of orders whose `next_check_at` has come, oldest first (the worker leases its own). */
  dueIds(now: Date, limit: number): Promise<number[]>;
}

export interface OrderAdapter<T extends OrderTypes> {
  /** The ledger's name of the product: its entries carry it. */
  readonly product: 'giftcards' | 'topups';
  /** Statuses in which an order takes no further step. */
  readonly finalStates: readonly string[];
  /**
   * Whether a provider that answers from memory (one without `reserve`) is asked inside the
   * transaction, after the reservation's checks (top-ups: a retried request to the sandbox's 99993 is
   * told first that its reference is used), rather than before the transaction (gift cards). A
   * provider with `reserve` (it reads the database or calls out) is always asked before.
   */
  readonly acceptsAfterReservation: boolean;
  /** The unique index that makes `customIdentifier` single-use: a clash on it is a 400. */
  readonly referenceIndex: string;
  /**
   * The product's row writer (`ledger.registerRowWriter`): its rows go with the debit, a batch's in
   * the debits' one statement.
   */
  readonly rowWriter: RowWriter<T['rows']>;
  /** The product's repository, for the steps. */
  readonly repository: OrderRows<T['row']>;

  // POST: check -> price -> accept -> transaction -> first step -> view

  /**
   * Every rule of the request, in the order a caller can fix them, the account's among them
   * (`order-request.ts`).
   */
  check(principal: Principal, body: T['body']): Promise<T['checked']>;
  /**
   * The price (`order-pricing.ts`). Thrown: answered now. Returned as an AppError: answered in the
   * transaction, after the reservation's checks (a retried request is told first that its
   * reference is used).
   */
  price(checked: T['checked']): Promise<T['price'] | AppError>;
  /** In the transaction: the new id, with the checks that need no lock (gathered in a batch). Throws a refusal. */
  reserve(trx: Kysely<Database>, checked: T['checked']): Promise<number>;
  /** The new order as its provider sees it, before any step (`firstStep: true`). */
  toFulfil(n: NewOrder<T>): T['order'];
  /** A first step taken from memory, before the writes: what the row is written with. */
  firstStep(n: NewOrder<T>, step: T['step']): Promise<T['first']>;
  /**
   * The order's debit: what it takes (rounded to the account currency), the entry's reason, and the
   * rows the row writer writes with it.
   */
  debit(n: NewOrder<T>): { amount: Dec; reason: string; rows: T['rows'] };
  /**
   * A debit refused (the balance, a daily limit) after waiting for the account's row: throws what a
   * twin that committed meanwhile makes of this order (its reference used, its number recently
   * topped up), as a request a moment later would have been told first. Else returns.
   */
  recheck(trx: Kysely<Database>, checked: T['checked']): Promise<void>;
  /**
   * After the debit: the row as the row writer stored it, built in memory. It makes no statement:
   * the batch's COMMIT may already be behind the debit's.
   */
  stored(rows: T['rows'], debit: PostingResult): T['row'];
  /** A first step that refunded at once: the refund, in the order's transaction. */
  refund(trx: Kysely<Database>, row: T['row'], n: NewOrder<T>): Promise<T['row']>;
  /**
   * Throws what the placing request answers instead of the order, if anything. Without it: the
   * refusal of a first step (the order refunded), when there is one.
   */
  answer?(row: T['row'], refusal: AppError | null): void;
  /** The resource answered (`order-view.ts`); `baseUrl`: the base the request came on. */
  view(row: T['row'], baseUrl: string): T['view'];

  // steps (the placing request's after the commit, and the worker's)

  /** What a step needs read before its transaction (top-ups: live's operators), if anything. */
  beforeStep?(): Promise<unknown>;
  /** A stored order as its provider sees it. */
  orderOf(row: T['row'], firstStep: boolean): T['order'];
  /** The product's state machine: applies a step on the locked row. */
  apply(trx: Kysely<Database>, row: T['row'], step: T['step']): Promise<unknown>;
  /** After a failed worker step: the next look at `at` (gift cards); without it the order stays due. */
  postpone?(id: number, at: Date): Promise<void>;
}

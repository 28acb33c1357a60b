import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';
import { AppError, type ErrorCode } from '../../errors/error-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import { HeldByOrdersInFlight, type OrderProvider } from '../../lib/fulfilment-provider.ts';
import { takeStep } from '../../lib/fulfilment-step.ts';
import { dec } from '../../lib/money.ts';
import type { Principal } from '../auth/index.ts';
import type { Ledger, PostingResult } from '../ledger/index.ts';
import type { NewOrder, OrderAdapter, OrderTypes } from './order-adapter.ts';

/**
 * The one order path of both products: `POST /orders` and `POST /topups` run `place`, the worker
 * runs `stepIfDue` (and `retryLater` when a step threw). What differs per product is its adapter
 * (`order-adapter.ts`); this file is the sequence, the transaction and the steps:
 *
 *   check -> price -> accept -> transaction (reserve, the provider's reserve or first step, debit
 *   + rows, refund) -> the first step of a provider that works outside memory -> answer -> view
 *
 * The transaction is the ledger's `orderTransaction`, shared with the other orders of the account
 * waiting meanwhile (modules/group-commit/); each statement the orders of a batch make together is
 * one for the whole batch. A provider that answers from memory (the sandboxes) takes its first step
 * before the writes, so the row is written in the state it reached. One that reads the database or
 * calls out (it has `reserve`: the code stock, an upstream) takes what it needs before the debit
 * (the stock's codes); when that settles the order (every code drawn), the row is written in that
 * state too. Else it takes its first step right after the commit, on the order's locked row,
 * outside any transaction when it calls out (`lib/fulfilment-step.ts`). A first step that fails
 * (throws) leaves the order accepted and paid, due at `rescueAt`: the worker takes it on.
 *
 * @example
 * const orders = createOrderPath({ db, clock, ledger, providers, settings: { callOutClaimMs } }, adapter);
 * const view = await orders.place(principal, body, baseUrl);
 * await orders.stepIfDue(transactionId); // the worker
 */

/**
 * What the account and its debit refuse an order with, in either product (accounts' `requireActive`,
 * the ledger's balance and daily limits); both OpenAPI documents list them in this order.
 */
export const DEBIT_REFUSALS = [
  'INSUFFICIENT_BALANCE',
  'INACTIVE_ACCOUNT',
  'MAX_DAILY_TRANSACTION_COUNT_REACHED',
  'MAX_DAILY_TRANSACTION_AMOUNT_REACHED',
] as const satisfies readonly ErrorCode[];

/** A generous bound on one fulfilment step: past it, the worker takes over an order left behind. */
export const RESCUE_AFTER_MS = 60_000;

/**
 * How long an order whose provider found what it needs held by orders in flight waits before each
 * new try (`HeldByOrdersInFlight`): together about the time a batch of orders holds its codes.
 */
const RETRY_DELAYS_MS = [10, 40, 150];

export interface OrderPathDeps<T extends OrderTypes> {
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  providers: Record<Environment, OrderProvider<T['checked']['request'], T['order'], T['step']>>;
  settings: {
    /** How long a step that calls out (an upstream) holds its order (lib/fulfilment-step.ts). */
    callOutClaimMs: number;
    /** `RESCUE_AFTER_MS` unless a test says otherwise. */
    rescueAfterMs?: number;
  };
}

function isUniqueViolationOf(error: unknown, index: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && `${e.constraint ?? ''} ${e.message ?? ''}`.includes(index);
}

export function createOrderPath<T extends OrderTypes>(deps: OrderPathDeps<T>, a: OrderAdapter<T>) {
  const { db, clock, ledger, providers } = deps;
  const rescueAfterMs = deps.settings.rescueAfterMs ?? RESCUE_AFTER_MS;
  // the product's rows written with its debit: in a batch by the debits' one statement
  const debitWithRows = ledger.registerRowWriter(a.rowWriter);
  type Provider = (typeof providers)[Environment];
  /** `settled`: the provider's reserve finished the order in its transaction (stock codes drawn). */
  type Placed = { row: T['row']; refusal: AppError | null; settled: boolean };

  async function place(principal: Principal, body: T['body'], baseUrl = ''): Promise<T['view']> {
    const { accountId, environment } = principal;
    const checked = await a.check(principal, body);
    const price = await a.price(checked);
    // the environment's provider refuses here what it cannot take (an unrouted live product: 422),
    // before anything is written; one that answers from memory may be asked in the transaction
    const provider = providers[environment];
    if (provider.reserve || !a.acceptsAfterReservation) await provider.accept(checked.request);
    let placed: Placed | undefined;
    for (let attempt = 0; !placed; attempt++) {
      try {
        placed = await ledger.orderTransaction({ accountId, environment, tag: checked.tag }, (trx) =>
          write(trx, principal, checked, price, provider),
        );
      } catch (error) {
        if (isUniqueViolationOf(error, a.referenceIndex))
          throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
        // rolled back before its debit: placed again once the orders in flight are done
        if (error instanceof HeldByOrdersInFlight) {
          if (attempt >= RETRY_DELAYS_MS.length) throw error.refusal;
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
          continue;
        }
        throw error;
      }
    }
    let { row, refusal } = placed;
    // Accepted and paid: whatever the first step of a provider that works outside memory does, the
    // caller gets the order (a step that failed here is retried by the worker from its next look),
    // or the refusal it was refunded for.
    if (provider.reserve && !placed.settled) {
      const id = row.id;
      const taken = await step(id, false, true).catch(async () => ({
        row: (await a.repository.get(id)) ?? row,
        refusal: null,
      }));
      row = taken.row ?? row;
      refusal = taken.refusal;
    }
    if (a.answer) a.answer(row, refusal);
    else if (refusal) throw refusal;
    return a.view(row, baseUrl);
  }

  /** One order's work in its (maybe shared) transaction: each gathered statement one for the batch. */
  async function write(
    trx: Kysely<Database>,
    principal: Principal,
    checked: T['checked'],
    price: T['price'] | AppError,
    provider: Provider,
  ): Promise<Placed> {
    const id = await a.reserve(trx, checked);
    if (price instanceof AppError) throw price;
    if (!provider.reserve && a.acceptsAfterReservation) {
      const accepted = provider.accept(checked.request);
      if (accepted instanceof Promise) await accepted;
    }
    const now = clock.now();
    const n: NewOrder<T> = {
      id,
      checked,
      price,
      now,
      first: null,
      rescueAt: new Date(now.getTime() + rescueAfterMs),
    };
    const order = a.toFulfil(n);
    let settled = false;
    if (provider.reserve) {
      // What the provider takes now (stock codes) commits with the debit; its refusal rolls back
      // before anything is debited. When that settles the order (every code drawn), that is its
      // first step: the row is written SUCCESSFUL with its cards by the debit's own statement, as a
      // sandbox order's is, so nothing follows the debit and its COMMIT may go right behind it.
      const step = await provider.reserve(trx, order);
      if (step) {
        n.first = await a.firstStep(n, step);
        settled = true;
      }
    } else {
      // From memory, before the writes; a step that fails leaves the order to the worker (rescueAt).
      n.first = await firstStep(provider, n, order, trx);
    }
    const { amount, reason, rows } = a.debit(n);
    const debit = {
      accountId: principal.accountId,
      environment: principal.environment,
      amount,
      product: a.product,
      transactionId: id,
      reason,
      limits: {
        count: checked.account.dailyCountLimit,
        amount: checked.account.dailyAmountLimit === null ? null : dec(checked.account.dailyAmountLimit),
      },
    };
    // Nothing after the debit with its rows unless a first step refunded: then the batch's COMMIT
    // may go out right behind that statement (modules/group-commit/).
    const last = !n.first?.refund;
    const posted: PostingResult = await debitWithRows(trx, debit, rows, last).catch(async (error) => {
      if (error instanceof AppError) await a.recheck(trx, checked);
      throw error;
    });
    let row = a.stored(rows, posted);
    if (n.first?.refund) row = await a.refund(trx, row, n);
    return { row, refusal: n.first?.refusal ?? null, settled };
  }

  async function firstStep(
    provider: Provider,
    n: NewOrder<T>,
    order: T['order'],
    trx: Kysely<Database>,
  ): Promise<T['first'] | null> {
    try {
      const answered = provider.step(order, n.now, trx);
      return await a.firstStep(n, answered instanceof Promise ? await answered : answered);
    } catch {
      return null;
    }
  }

  /**
   * One step of an order on its locked row (`lib/fulfilment-step.ts`: a step that calls out runs
   * outside any transaction); `onlyIfDue` for the worker, `firstStep` for the placing request's. A
   * refusal is returned (the order is refunded by then) for the placing request to answer.
   */
  async function step(
    id: number,
    onlyIfDue: boolean,
    firstStep: boolean,
  ): Promise<{ row: T['row'] | undefined; refusal: AppError | null }> {
    await a.beforeStep?.();
    const isOpen = (row: T['row']) => !a.finalStates.includes(row.status);
    const taken = await takeStep<T['row'], T['order'], T['step'], Kysely<Database>>({
      transaction: (work) => db.transaction().execute(work),
      outside: db,
      lock: (trx) => a.repository.lock(trx, id),
      isOpen: (row, now) =>
        isOpen(row) && !(onlyIfDue && (row.next_check_at === null || row.next_check_at > now)),
      orderOf: (row) => a.orderOf(row, firstStep),
      providerOf: (row) => providers[row.environment],
      apply: (trx, row, next) => a.apply(trx, row, next),
      claim: (trx, row, until) => a.repository.claim(trx, row.id, until),
      isClaimed: (row, until) => isOpen(row) && row.next_check_at?.getTime() === until.getTime(),
      claimMs: deps.settings.callOutClaimMs,
      now: () => clock.now(),
    });
    const refusal = taken?.status === 'REFUSED' ? (taken.error ?? null) : null;
    return { row: await a.repository.get(id), refusal };
  }

  return {
    place,

    /** Orders whose `next_check_at` has come, oldest first (the worker leases its own: worker/). */
    async due(now: Date, limit: number): Promise<Array<{ id: number }>> {
      return (await a.repository.dueIds(now, limit)).map((id) => ({ id }));
    },

    /** The next step of an order whose `next_check_at` has come (the worker's job). */
    async stepIfDue(id: number): Promise<void> {
      await step(id, true, false);
    },

    /**
     * After a step that threw: the next look `rescueAfterMs` from now when the product postpones
     * (gift cards); else the order stays due, and the worker's next run asks again (top-ups).
     */
    async retryLater(id: number): Promise<void> {
      await a.postpone?.(id, new Date(clock.now().getTime() + rescueAfterMs));
    },
  };
}

export type OrderPath<T extends OrderTypes> = ReturnType<typeof createOrderPath<T>>;

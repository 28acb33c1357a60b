import type { Kysely } from 'kysely';
import type { Database, UpstreamProduct } from '../../db/schema.ts';
import { AppError } from '../../errors/error-codes.ts';
import type { RefusedStep } from '../../lib/fulfilment-provider.ts';
import type { UpstreamAnswer, UpstreamClient } from './upstream-client.ts';
import { upstreamCustomIdentifier } from './upstream-identifiers.ts';
import { RETRY_NEW, refusalOf } from './upstream-refusals.ts';
import type { UpstreamService } from './upstream-service.ts';

/**
 * The buying protocol both products' upstream providers share (`giftcards/fulfilment/` and
 * `topups/fulfilment/upstream-provider.ts` say only what differs: the paths, the body, how an
 * upstream transaction reads and what each of its states means for ours). The customIdentifier sent
 * is derived from our transaction id (`ag-live-<id>`), so no retry can buy twice.
 *
 * A step, by what `upstream_calls` knows of the transaction:
 * - nothing (not yet sent): POST. Accepted: followed (`follow`). A refusal: REFUSED (refunded; the
 *   placing request answers its code, `upstream-refusals.ts`). Unknown outcome (timeout, reset, 5xx):
 *   PROCESSING, reconciled at the next step. Not sent at all (unreachable) on the placing request's
 *   own step: refused 503, refunded; on a later step (an earlier attempt may have gone out before a
 *   crash): PROCESSING, tried again.
 * - `unknown`: the upstream's reports by our customIdentifier: found, followed; provably absent (an
 *   answered list without it), sent again with the same customIdentifier; no answer, looked at later.
 * - `placed`: the upstream's transaction by id until it is final.
 * A step runs outside any transaction (`lib/fulfilment-step.ts`): `db` is the database itself, and
 * each record commits on its own, the attempt before the POST leaves (so a crash during the call
 * leaves `unknown`, reconciled by the reports) and the outcome after it; the order's state change is
 * applied afterwards on its locked row. Every record is safe to repeat: the customIdentifier sent is
 * derived from our id, so no repetition can buy twice.
 *
 * @example
 * const steps = upstreamFulfilment(upstreams, { product: 'topups', placePath: '/topups', ... });
 * await steps.step(order, now, db); // { status: 'PROCESSING', nextCheckAt } while the upstream works
 */
export interface UpstreamOrder {
  transactionId: number;
  /** The placing request's own step (an unreachable upstream then refuses at once). */
  firstStep?: boolean;
}

export interface UpstreamTransaction {
  transactionId: number;
  status: string;
}

/**
 * The two fields of an upstream transaction both products read the same way (an answer's body);
 * null when it is not one. A product's `parse` reads its own fields beside them.
 */
export function upstreamTransactionOf(body: unknown): UpstreamTransaction | null {
  const t = body as { transactionId?: unknown; status?: unknown } | null;
  if (!t || typeof t !== 'object' || typeof t.status !== 'string') return null;
  const id = Number(t.transactionId);
  return Number.isSafeInteger(id) ? { transactionId: id, status: t.status } : null;
}

/**
 * Records the upstream's transaction on our call row: `placed` while it works, `final` once done.
 * Saved `final` as SUCCESSFUL, the upstream delivered: its success is noted too (`noteSuccess`, which
 * clears a low-balance flag), the same for both products, so no product's `follow` notes it itself.
 */
export type SaveFollowed = (state: 'placed' | 'final', lastError?: string | null) => Promise<void>;

/** Not finished: looked at again at `nextCheckAt` (a step both products' orders know). */
export interface ProcessingStep {
  status: 'PROCESSING';
  nextCheckAt: Date;
}

/** PROCESSING, looked at again after `ms` (the upstream's recheck interval unless told). */
export type Later = (now: Date, ms?: number) => ProcessingStep;

/** The steps the protocol takes by itself, for either product: still working, or refused. */
export type ProtocolStep = ProcessingStep | RefusedStep;

export interface UpstreamProtocol<O extends UpstreamOrder, T extends UpstreamTransaction, S> {
  product: UpstreamProduct;
  /** In messages: 'order', 'top-up'. */
  noun: string;
  placePath: string;
  /** The reports' list (filtered by customIdentifier); `${reportsPath}/{id}` reads one. */
  reportsPath: string;
  body(order: O, customIdentifier: string): unknown;
  /** An upstream transaction from an answer's body; null when it is not one. */
  parse(body: unknown): T | null;
  /** Our step for the upstream's transaction `t`; `save` records it. */
  follow(
    client: UpstreamClient,
    order: O,
    t: T,
    now: Date,
    save: SaveFollowed,
    later: Later,
  ): Promise<S | ProcessingStep>;
  /** What a step answers for a transaction the upstream refused earlier. */
  refusedEarlier(lastError: string | null): AppError;
  /** Looked at again after this long while no upstream is configured. */
  idleRecheckMs: number;
}

export function upstreamFulfilment<R, O extends UpstreamOrder & R, T extends UpstreamTransaction, S>(
  upstreams: UpstreamService,
  /** What answers when no upstream is configured (live's refusing provider): refuses a request R. */
  unconfigured: { accept(request: R): void | Promise<void> },
  p: UpstreamProtocol<O, T, S>,
) {
  const calls = upstreams.calls;
  const { product } = p;
  const identifier = (transactionId: number) => upstreamCustomIdentifier('live', transactionId);
  const later: Later = (now, ms = upstreams.recheckMs) => ({
    status: 'PROCESSING',
    nextCheckAt: new Date(now.getTime() + ms),
  });
  const refused = (error: AppError): RefusedStep => ({ status: 'REFUSED', error });

  function follow(
    db: Kysely<Database>,
    client: UpstreamClient,
    order: O,
    t: T,
    now: Date,
  ): Promise<S | ProcessingStep> {
    const save: SaveFollowed = async (state, lastError = null) => {
      await calls.save(db, {
        product,
        transactionId: order.transactionId,
        customIdentifier: identifier(order.transactionId),
        state,
        upstreamTransactionId: t.transactionId,
        upstreamStatus: t.status,
        lastError,
        now,
      });
      if (state === 'final' && t.status === 'SUCCESSFUL') await upstreams.noteSuccess(db, product);
    };
    return p.follow(client, order, t, now, save, later);
  }

  /**
   * The upstream's transaction with our customIdentifier: found, provably none (null: the upstream
   * answered a list without it), or why the reports could not be read (text).
   */
  async function lookUp(client: UpstreamClient, transactionId: number): Promise<T | null | string> {
    const customIdentifier = identifier(transactionId);
    const answer = await client.call('GET', p.reportsPath, { query: { customIdentifier } });
    const found = listOf(answer);
    if (found === null) {
      return answer.kind === 'answered'
        ? `HTTP ${answer.status} ${answer.errorCode ?? ''}`.trim()
        : answer.reason;
    }
    // only a transaction with our identifier counts (an upstream that ignored the filter lists others)
    return (
      found
        .filter((t) => (t as { customIdentifier?: unknown })?.customIdentifier === customIdentifier)
        .map((t) => p.parse(t))
        .find((t) => t !== null) ?? null
    );
  }

  /** The POST with the derived customIdentifier, and what its answer makes of the transaction. */
  async function place(
    db: Kysely<Database>,
    client: UpstreamClient,
    order: O,
    now: Date,
    sentBefore: boolean,
  ): Promise<S | ProtocolStep> {
    const customIdentifier = identifier(order.transactionId);
    // The attempt is on record before the request leaves: after a crash during the call, the next
    // step asks the reports instead of guessing.
    await calls.save(db, {
      product,
      transactionId: order.transactionId,
      customIdentifier,
      state: 'unknown',
      lastError: 'sent; no answer recorded yet',
      now,
    });
    const answer = await client.call('POST', p.placePath, { body: p.body(order, customIdentifier) });
    // `attempt`: the request went out (a request never sent is no attempt)
    const record = (state: 'unknown' | 'refused', lastError: string, attempt = true) =>
      calls.save(db, {
        product,
        transactionId: order.transactionId,
        customIdentifier,
        state,
        lastError,
        attempt,
        now,
      });
    const note = (message: string) =>
      upstreams.noteError(db, { product, transactionId: order.transactionId, message });

    if (answer.kind === 'notSent') {
      await note(answer.reason);
      if (!sentBefore && order.firstStep) {
        await record('refused', answer.reason, false);
        return refused(
          new AppError(
            'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
            `Live fulfilment is unreachable at the moment; the ${p.noun} was refunded. ${RETRY_NEW}`,
            [],
            { 'Retry-After': '60' },
          ),
        );
      }
      await record('unknown', answer.reason, false);
      return later(now);
    }
    if (answer.kind === 'unknown') {
      await record('unknown', answer.reason);
      await note(`outcome unknown, to reconcile: ${answer.reason}`);
      return later(now);
    }
    if (answer.status >= 200 && answer.status < 300) {
      const t = p.parse(answer.body);
      if (!t) {
        await record('unknown', `HTTP ${answer.status}: an answer that is not a transaction`);
        return later(now);
      }
      await calls.save(db, {
        product,
        transactionId: order.transactionId,
        customIdentifier,
        state: 'placed',
        upstreamTransactionId: t.transactionId,
        upstreamStatus: t.status,
        attempt: true,
        now,
      });
      return follow(db, client, order, t, now);
    }
    // Our identifier is already used there: an earlier attempt of ours reached it. Never a refusal.
    if (answer.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED') {
      await record('unknown', 'CUSTOM_IDENTIFIER_ALREADY_USED: an earlier attempt reached the upstream');
      return reconcile(db, client, order, now, false);
    }
    const refusal = refusalOf(answer);
    // An earlier attempt may still have been under way at the upstream while this one was refused
    // (a request delivered late): refunded only when the upstream provably has none.
    if (sentBefore) {
      const found = await lookUp(client, order.transactionId);
      if (found) {
        if (typeof found !== 'string') return follow(db, client, order, found, now);
        await record(
          'unknown',
          `refused (${refusal.description}), then no answer from the reports: ${found}`,
        );
        return later(now);
      }
    }
    await record('refused', refusal.description);
    if (refusal.insufficientBalance) {
      await upstreams.noteInsufficientBalance(db, {
        product,
        transactionId: order.transactionId,
        message: `the upstream's balance is too low for ${p.noun} ${order.transactionId}; refunded (${refusal.description})`,
      });
    } else if (refusal.ours) {
      await note(`refused for our account: ${refusal.description}`);
    }
    return refused(refusal.error);
  }

  /** An attempt whose outcome is unknown: the upstream's reports by our customIdentifier decide. */
  async function reconcile(
    db: Kysely<Database>,
    client: UpstreamClient,
    order: O,
    now: Date,
    mayPlace: boolean,
  ): Promise<S | ProtocolStep> {
    const found = await lookUp(client, order.transactionId);
    if (typeof found === 'string') {
      await calls.save(db, {
        product,
        transactionId: order.transactionId,
        customIdentifier: identifier(order.transactionId),
        state: 'unknown',
        lastError: `reconcile: ${found}`,
        now,
      });
      return later(now);
    }
    if (found) return follow(db, client, order, found, now);
    // provably none: buying now (same identifier) cannot buy twice
    return mayPlace ? place(db, client, order, now, true) : later(now);
  }

  return {
    async accept(request: R, db?: Kysely<Database>) {
      if (!(await upstreams.client(product, db))) await unconfigured.accept(request);
    },

    // Nothing to take in the order's transaction; having `reserve` makes the order path take the
    // first step after the commit, so no call is ever made while the account's balance is locked.
    async reserve(): Promise<undefined> {
      return undefined;
    },

    /** Every step of this protocol calls the upstream: it runs outside any transaction. */
    callsOut: async () => true,

    async step(order: O, now: Date, db: Kysely<Database>): Promise<S | ProtocolStep> {
      const call = await calls.get(db, product, order.transactionId);
      const client = await upstreams.client(product, db);
      if (!client) {
        // removed since: a transaction never sent is refused; one the upstream may have waits for it
        if (!call || call.state === 'refused') {
          try {
            await unconfigured.accept(order);
          } catch (error) {
            if (error instanceof AppError) return refused(error);
            throw error;
          }
        }
        return later(now, p.idleRecheckMs);
      }
      if (!call) return place(db, client, order, now, !order.firstStep);
      switch (call.state) {
        case 'unknown':
          return reconcile(db, client, order, now, true);
        case 'refused':
          return refused(p.refusedEarlier(call.last_error));
        default: {
          const id = call.upstream_transaction_id;
          if (id === null) return reconcile(db, client, order, now, true);
          const answer = await client.call('GET', `${p.reportsPath}/${id}`);
          const t = answer.kind === 'answered' && answer.status === 200 ? p.parse(answer.body) : null;
          if (!t) return later(now);
          return follow(db, client, order, t, now);
        }
      }
    },

    owns: async (db: Kysely<Database>, transactionId: number) =>
      (await calls.get(db, product, transactionId)) !== undefined,
  };
}

/** A report list, bare (the gift card reports) or paged (`content`); null when there was no answer. */
function listOf(answer: UpstreamAnswer): unknown[] | null {
  if (answer.kind !== 'answered' || answer.status !== 200) return null;
  if (Array.isArray(answer.body)) return answer.body;
  const content = (answer.body as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? content : null;
}

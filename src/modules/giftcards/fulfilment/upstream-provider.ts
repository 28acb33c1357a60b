import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import {
  refusalOf,
  type UpstreamAnswer,
  type UpstreamClient,
  type UpstreamService,
  upstreamCustomIdentifier,
} from '../../upstream/index.ts';
import type { FulfilmentStep, GiftcardProvider, IssuedCard, OrderToFulfil } from './provider.ts';

/**
 * Live gift cards bought from the upstream (`airgift upstream set giftcards ...`): the order is
 * debited and recorded first (the order service), then each step, on the order's locked row,
 * moves it on at the upstream. The customIdentifier sent is derived from our transaction id
 * (`ag-live-<id>`), so no retry can buy twice: the upstream refuses a second order with it
 * (CUSTOM_IDENTIFIER_ALREADY_USED), which only sends us to its reports.
 *
 * A step, by what `upstream_calls` knows of the order:
 * - nothing (not yet sent): `POST /orders`. SUCCESSFUL: `GET /orders/transactions/{id}/cards`, the
 *   cards are ours. PROCESSING/PENDING: PROCESSING, polled. A refusal: REFUSED (refunded; the placing
 *   request answers its code, see `upstream/upstream-refusals.ts`). Unknown outcome (timeout, reset,
 *   5xx): PROCESSING, reconciled at the next step. Not sent at all (unreachable) on the placing
 *   request's own step: refused 503, refunded; on a later step (an earlier attempt may have gone out
 *   before a crash): PROCESSING, tried again.
 * - `unknown`: `GET /reports/transactions?customIdentifier=ag-live-<id>`: found, it is followed as
 *   below; provably absent (the upstream answered an empty list), sent again with the same
 *   customIdentifier; no answer, looked at again later.
 * - `placed`: `GET /reports/transactions/{upstreamId}` until it is final: SUCCESSFUL (its cards),
 *   FAILED (ours FAILED too, waiting), REFUNDED (ours refunded).
 * Every step's record commits with the step's state change, in the step's transaction.
 */
const RECHECK_MS = 3_000;
/** A pre-order waiting at the upstream is looked at less often. */
const PRE_ORDER_RECHECK_MS = 60_000;
const PRODUCT = 'giftcards';

interface UpstreamTransaction {
  transactionId: number;
  status: string;
}

export function createUpstreamProvider(deps: {
  upstreams: UpstreamService;
  /** What answers when no upstream is configured (live's refusing provider). */
  unconfigured: GiftcardProvider;
}): GiftcardProvider & { owns(trx: Kysely<Database>, transactionId: number): Promise<boolean> } {
  const { upstreams, unconfigured } = deps;
  const calls = upstreams.calls;

  const later = (now: Date, ms = RECHECK_MS): FulfilmentStep => ({
    status: 'PROCESSING',
    nextCheckAt: new Date(now.getTime() + ms),
  });

  /** The step of an order whose upstream transaction we know. */
  async function follow(
    trx: Kysely<Database>,
    client: UpstreamClient,
    order: OrderToFulfil,
    t: UpstreamTransaction,
    now: Date,
  ): Promise<FulfilmentStep> {
    const save = (state: 'placed' | 'final', lastError: string | null = null) =>
      calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier: upstreamCustomIdentifier('live', order.transactionId),
        state,
        upstreamTransactionId: t.transactionId,
        upstreamStatus: t.status,
        lastError,
        now,
      });
    switch (t.status) {
      case 'SUCCESSFUL': {
        const cards = await cardsOf(client, t.transactionId, order.quantity);
        if (typeof cards === 'string') {
          await save('placed', cards);
          return later(now);
        }
        await save('final');
        await upstreams.noteSuccess(trx, PRODUCT);
        return { status: 'SUCCESSFUL', cards };
      }
      case 'REFUNDED':
        await save('final');
        return { status: 'REFUNDED' };
      case 'FAILED':
        await save('placed');
        return { status: 'FAILED', nextCheckAt: new Date(now.getTime() + RECHECK_MS) };
      case 'PENDING':
        await save('placed');
        return later(now, PRE_ORDER_RECHECK_MS);
      default:
        await save('placed');
        return later(now);
    }
  }

  /** `POST /orders` with the derived customIdentifier, and what its answer makes of the order. */
  async function place(
    trx: Kysely<Database>,
    client: UpstreamClient,
    order: OrderToFulfil,
    now: Date,
    sentBefore: boolean,
  ): Promise<FulfilmentStep> {
    const customIdentifier = upstreamCustomIdentifier('live', order.transactionId);
    const answer = await client.call('POST', '/orders', {
      body: {
        productId: order.productId,
        quantity: order.quantity,
        unitPrice: Number(order.unitPrice),
        customIdentifier,
        senderName: order.senderName,
        preOrder: order.preOrder,
        ...(order.userId ? { productAdditionalRequirements: { userId: order.userId } } : {}),
      },
    });
    const record = (state: 'unknown' | 'refused', lastError: string, attempt = true) =>
      calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier,
        state,
        lastError,
        attempt,
        now,
      });

    if (answer.kind === 'notSent') {
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: answer.reason,
      });
      if (!sentBefore && order.firstStep) {
        await record('refused', answer.reason, false);
        return {
          status: 'REFUSED',
          error: new AppError(
            'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
            'Live fulfilment is unreachable at the moment; the order was refunded. Retry later.',
            [],
            { 'Retry-After': '60' },
          ),
        };
      }
      await record('unknown', answer.reason, false);
      return later(now);
    }
    if (answer.kind === 'unknown') {
      await record('unknown', answer.reason);
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `outcome unknown, to reconcile: ${answer.reason}`,
      });
      return later(now);
    }
    if (answer.status >= 200 && answer.status < 300) {
      const t = asTransaction(answer.body);
      if (t) {
        await calls.save(trx, {
          product: PRODUCT,
          transactionId: order.transactionId,
          customIdentifier,
          state: 'placed',
          upstreamTransactionId: t.transactionId,
          upstreamStatus: t.status,
          attempt: true,
          now,
        });
        return follow(trx, client, order, t, now);
      }
      await record('unknown', `HTTP ${answer.status}: an answer that is not a transaction`);
      return later(now);
    }
    // Our identifier is already used there: an earlier attempt of ours reached it. Never a refusal.
    if (answer.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED') {
      await record('unknown', 'CUSTOM_IDENTIFIER_ALREADY_USED: an earlier attempt reached the upstream');
      return reconcile(trx, client, order, now, false);
    }
    const refusal = refusalOf(answer);
    // An earlier attempt may still have been under way at the upstream while this one was refused
    // (a request delivered late): refunded only when the upstream provably has none.
    if (sentBefore) {
      const found = await lookUp(client, order.transactionId);
      if (found) {
        if (typeof found !== 'string') return follow(trx, client, order, found, now);
        await record(
          'unknown',
          `refused (${refusal.description}), then no answer from the reports: ${found}`,
        );
        return later(now);
      }
    }
    await record('refused', refusal.description);
    if (refusal.insufficientBalance) {
      await upstreams.noteInsufficientBalance(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `the upstream's balance is too low for transaction ${order.transactionId}; refunded (${refusal.description})`,
      });
    } else if (refusal.ours) {
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `refused for our account: ${refusal.description}`,
      });
    }
    return { status: 'REFUSED', error: refusal.error };
  }

  /** An attempt whose outcome is unknown: the upstream's reports by our customIdentifier decide. */
  async function reconcile(
    trx: Kysely<Database>,
    client: UpstreamClient,
    order: OrderToFulfil,
    now: Date,
    mayPlace: boolean,
  ): Promise<FulfilmentStep> {
    const found = await lookUp(client, order.transactionId);
    if (typeof found === 'string') {
      await calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier: upstreamCustomIdentifier('live', order.transactionId),
        state: 'unknown',
        lastError: `reconcile: ${found}`,
        now,
      });
      return later(now);
    }
    if (found) return follow(trx, client, order, found, now);
    // provably none: buying now (same identifier) cannot buy twice
    return mayPlace ? place(trx, client, order, now, true) : later(now);
  }

  return {
    async accept(request) {
      if (!(await upstreams.client(PRODUCT))) await unconfigured.accept(request);
    },

    // Nothing to take in the order's transaction; having `reserve` makes the order service take the
    // first step after the commit, so no call is ever made while the account's balance is locked.
    async reserve() {},

    async step(order, now, trx) {
      const call = await calls.get(trx, PRODUCT, order.transactionId);
      const client = await upstreams.client(PRODUCT, trx);
      if (!client) {
        // removed since: an order never sent is refused; one the upstream may have waits for it
        if (!call || call.state === 'refused') {
          try {
            await unconfigured.accept(order);
          } catch (error) {
            if (error instanceof AppError) return { status: 'REFUSED', error };
            throw error;
          }
        }
        return later(now, PRE_ORDER_RECHECK_MS);
      }
      if (!call) return place(trx, client, order, now, !order.firstStep);
      switch (call.state) {
        case 'unknown':
          return reconcile(trx, client, order, now, true);
        case 'refused':
          return {
            status: 'REFUSED',
            error: new AppError(
              'UNPROCCESSABLE_ENTITY',
              `The supplier refused the order: ${call.last_error}`,
            ),
          };
        default: {
          const id = call.upstream_transaction_id;
          if (id === null) return reconcile(trx, client, order, now, true);
          const answer = await client.call('GET', `/reports/transactions/${id}`);
          const t = answer.kind === 'answered' && answer.status === 200 ? asTransaction(answer.body) : null;
          if (!t) return later(now);
          return follow(trx, client, order, t, now);
        }
      }
    },

    owns: async (trx, transactionId) => (await calls.get(trx, PRODUCT, transactionId)) !== undefined,
  };
}

/**
 * The upstream's transaction with our customIdentifier for `transactionId`: found, provably none
 * (null: the upstream answered a list without it), or why the reports could not be read (text).
 */
async function lookUp(
  client: UpstreamClient,
  transactionId: number,
): Promise<UpstreamTransaction | null | string> {
  const customIdentifier = upstreamCustomIdentifier('live', transactionId);
  const answer = await client.call('GET', '/reports/transactions', { query: { customIdentifier } });
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
      .map(asTransaction)
      .find((t) => t !== null) ?? null
  );
}

/** The cards of a SUCCESSFUL upstream transaction, or why they could not be read. */
async function cardsOf(
  client: UpstreamClient,
  upstreamId: number,
  quantity: number,
): Promise<IssuedCard[] | string> {
  const answer = await client.call('GET', `/orders/transactions/${upstreamId}/cards`);
  if (answer.kind !== 'answered') return `cards: ${answer.reason}`;
  if (answer.status !== 200 || !Array.isArray(answer.body)) return `cards: HTTP ${answer.status}`;
  const cards = (answer.body as Array<{ cardNumber?: unknown; pinCode?: unknown }>).map((c) => ({
    cardNumber: c.cardNumber === undefined || c.cardNumber === null ? '' : String(c.cardNumber),
    pinCode: c.pinCode === undefined || c.pinCode === null ? '' : String(c.pinCode),
  }));
  if (cards.length !== quantity) return `cards: ${cards.length} of ${quantity}`;
  return cards;
}

function asTransaction(body: unknown): UpstreamTransaction | null {
  const t = body as { transactionId?: unknown; status?: unknown } | null;
  if (!t || typeof t !== 'object' || typeof t.status !== 'string') return null;
  const id = Number(t.transactionId);
  return Number.isSafeInteger(id) ? { transactionId: id, status: t.status } : null;
}

/** A report list, bare (the gift card spec) or paged (`content`); null when there was no answer. */
function listOf(answer: UpstreamAnswer): unknown[] | null {
  if (answer.kind !== 'answered' || answer.status !== 200) return null;
  if (Array.isArray(answer.body)) return answer.body;
  const content = (answer.body as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? content : null;
}

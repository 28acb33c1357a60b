import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import {
  type UpstreamClient,
  type UpstreamService,
  type UpstreamTransaction,
  upstreamFulfilment,
  upstreamTransactionOf,
} from '../../upstream/index.ts';
import type {
  FulfilmentStep,
  GiftcardProvider,
  IssuedCard,
  OrderRequest,
  OrderToFulfil,
} from './provider.ts';

/**
 * Live gift cards bought from the upstream (`airgift upstream set giftcards ...`): the order is
 * debited and recorded first (the order path), then each step, on the order's locked row, moves
 * it on at the upstream by the protocol both products share (`upstream/upstream-fulfilment.ts`:
 * `POST /orders` with customIdentifier `ag-live-<id>`, reconciliation by the reports after an unknown
 * outcome, refusals refunded with their code). What is the gift cards' own: the order's body, and
 * what the upstream's states mean here: SUCCESSFUL brings its cards
 * (`GET /orders/transactions/{id}/cards`), FAILED keeps ours FAILED (waiting), REFUNDED refunds ours,
 * PENDING (a pre-order) is looked at less often, anything else stays PROCESSING.
 */
/** A pre-order waiting at the upstream is looked at less often. */
const PRE_ORDER_RECHECK_MS = 60_000;

export function createUpstreamProvider(deps: {
  upstreams: UpstreamService;
  /** What answers when no upstream is configured (live's refusing provider). */
  unconfigured: GiftcardProvider;
}): GiftcardProvider & { owns(trx: Kysely<Database>, transactionId: number): Promise<boolean> } {
  const { upstreams } = deps;
  return upstreamFulfilment<OrderRequest, OrderToFulfil, UpstreamTransaction, FulfilmentStep>(
    upstreams,
    deps.unconfigured,
    {
      product: 'giftcards',
      noun: 'order',
      placePath: '/orders',
      reportsPath: '/reports/transactions',
      body: (order, customIdentifier) => ({
        productId: order.productId,
        quantity: order.quantity,
        unitPrice: Number(order.unitPrice),
        customIdentifier,
        senderName: order.senderName,
        preOrder: order.preOrder,
        ...(order.userId ? { productAdditionalRequirements: { userId: order.userId } } : {}),
      }),
      parse: upstreamTransactionOf,
      async follow(client, order, t, now, save, later) {
        switch (t.status) {
          case 'SUCCESSFUL': {
            const cards = await cardsOf(client, t.transactionId, order.quantity);
            if (typeof cards === 'string') {
              await save('placed', cards);
              return later(now);
            }
            await save('final');
            return { status: 'SUCCESSFUL', cards };
          }
          case 'REFUNDED':
            await save('final');
            return { status: 'REFUNDED' };
          case 'FAILED':
            await save('placed');
            return { status: 'FAILED', nextCheckAt: new Date(now.getTime() + upstreams.recheckMs) };
          case 'PENDING':
            await save('placed');
            return later(now, PRE_ORDER_RECHECK_MS);
          default:
            await save('placed');
            return later(now);
        }
      },
      refusedEarlier: (lastError) =>
        new AppError('UNPROCCESSABLE_ENTITY', `The supplier refused the order: ${lastError}`),
      idleRecheckMs: PRE_ORDER_RECHECK_MS,
    },
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

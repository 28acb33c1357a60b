import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { HeldByOrdersInFlight } from '../../../lib/fulfilment-provider.ts';
import { createGathering } from '../../group-commit/index.ts';
import type { SealedCode, StockDraw, StockRepository } from '../stock/stock-repository.ts';
import type { FulfilmentStep, GiftcardProvider, OrderRequest, OrderToFulfil } from './provider.ts';

/**
 * Live fulfilment from the operator's code stock (`stock/`). `accept` refuses at once an order the
 * stock cannot serve (fewer unsold codes of its face value than its quantity, and no pre-order);
 * `reserve` draws the codes in the order's own transaction, before its debit, so codes and debit
 * commit together and the order is written SUCCESSFUL with its cards, and a draw that comes up short
 * (another order took them meanwhile) refuses the order with nothing debited, unless codes it skipped
 * are held by orders still in their transactions: then it is placed again a moment later
 * (`HeldByOrdersInFlight`: a holder whose debit is refused gives them back). The draws of a batch's
 * orders are one statement (`drawOrders`); one that comes up short for any of them fails the batch,
 * whose orders then draw alone, each to its own answer. A pre-order that cannot be filled whole
 * takes nothing and waits PENDING; each step (the worker's, brought forward by an import) tries the
 * draw again. `step` hands the drawn codes to the state machine, which stores them as the order's
 * cards like any provider's.
 */
const PRE_ORDER_RECHECK_MS = 60_000;

/** A batch's draw that came up short for one of its orders: the batch's orders draw again alone. */
class BatchDrawShort extends Error {}

export type StockProvider = GiftcardProvider & {
  owns(trx: Kysely<Database>, transactionId: number): Promise<boolean>;
  /** `accept` with the unsold codes already counted (up to the order's quantity). */
  acceptCounted(request: OrderRequest, available: number): void;
};

export function createStockProvider(deps: {
  repository: StockRepository;
  codec: CardCodec;
  clock: Clock;
  /** True on a batch's transaction (the ledger's `inBatch`): its orders' draws are one statement. */
  gathers: (trx: Kysely<Database>) => boolean;
}): StockProvider {
  const { repository, codec, clock } = deps;

  const outOfStock = (productId: number, unitPrice: string, available: number, quantity: number) =>
    new AppError(
      'UNPROCCESSABLE_ENTITY',
      `Product ${productId} is out of stock for unitPrice ${unitPrice} (${available} of ${quantity} cards); ` +
        'nothing was debited. Order it with preOrder: true, where the product supports pre-orders, to be served when codes arrive',
    );

  const draw = (trx: Kysely<Database>, order: OrderToFulfil, now: Date) =>
    repository.draw(trx, {
      transactionId: order.transactionId,
      productId: order.productId,
      faceValue: order.unitPrice,
      quantity: order.quantity,
      now,
    });

  const cardsOf = async (codes: SealedCode[]): Promise<FulfilmentStep> => ({
    status: 'SUCCESSFUL',
    cards: await Promise.all(
      codes.map(async (c) => ({
        cardNumber: await codec.open(c.card_number),
        pinCode: await codec.open(c.pin_code),
      })),
    ),
  });

  function acceptCounted({ productId, preOrder, quantity, unitPrice }: OrderRequest, available: number) {
    if (!preOrder && available < quantity) throw outOfStock(productId, unitPrice, available, quantity);
  }

  /**
   * One order's draw alone: its codes, recorded filled; or, for a pre-order that cannot be filled
   * whole, nothing taken and its stock order recorded waiting (null).
   */
  async function drawAlone(trx: Kysely<Database>, o: StockDraw & { preOrder: boolean }) {
    const drawn = await repository.draw(trx, o);
    const filled = drawn.length === o.quantity;
    if (!filled) {
      if (!o.preOrder) {
        const refusal = outOfStock(o.productId, o.faceValue, drawn.length, o.quantity);
        // codes the draw skipped are held by orders still in their transactions, which may give them
        // back (a refused debit): the order is placed again once they are done
        const held = await repository.available(o.productId, o.faceValue, o.now, o.quantity, trx);
        if (drawn.length + held >= o.quantity) throw new HeldByOrdersInFlight(refusal);
        throw refusal;
      }
      await repository.release(trx, o.transactionId);
    }
    await repository.insertOrder(trx, {
      transaction_id: o.transactionId,
      product_id: o.productId,
      face_value: o.faceValue,
      quantity: o.quantity,
      created_at: o.createdAt,
      filled_at: filled ? o.now : null,
    });
    return filled ? drawn : null;
  }

  const draws = createGathering({
    gathers: deps.gathers,
    one: drawAlone,
    async many(trx, orders: Array<StockDraw & { preOrder: boolean }>) {
      const drawn = await repository.drawOrders(trx, orders);
      if (drawn.some((codes, i) => codes.length < orders[i].quantity))
        throw new BatchDrawShort(
          'a batch of live orders drew fewer codes than it needs: its orders draw alone',
        );
      return drawn;
    },
  });

  return {
    async accept(request) {
      if (request.preOrder) return;
      const { productId, quantity, unitPrice } = request;
      acceptCounted(request, await repository.available(productId, unitPrice, clock.now(), quantity));
    },

    acceptCounted,

    async reserve(trx, order) {
      const drawn = await draws.run(trx, {
        transactionId: order.transactionId,
        productId: order.productId,
        faceValue: order.unitPrice,
        quantity: order.quantity,
        createdAt: order.createdAt,
        now: clock.now(),
        preOrder: order.preOrder,
      });
      // every code drawn: the order is settled in its own transaction (SUCCESSFUL with these cards)
      return drawn ? cardsOf(drawn) : undefined;
    },

    async step(order, now, trx) {
      const codes = await repository.codesOf(trx, order.transactionId);
      if (codes.length === order.quantity) return cardsOf(codes);
      // a pre-order still waiting: all its cards now, or none
      const drawn = await draw(trx, order, now);
      if (drawn.length < order.quantity) {
        await repository.release(trx, order.transactionId);
        return { status: 'PENDING', nextCheckAt: new Date(now.getTime() + PRE_ORDER_RECHECK_MS) };
      }
      await repository.markFilled(trx, order.transactionId, now);
      return cardsOf(drawn);
    },

    owns: (trx, transactionId) => repository.ownsOrder(trx, transactionId),
  };
}

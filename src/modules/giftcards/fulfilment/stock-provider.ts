import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { SealedCode, StockRepository } from '../stock/stock-repository.ts';
import type { FulfilmentStep, GiftcardProvider, OrderToFulfil } from './provider.ts';

/**
 * Live fulfilment from the operator's code stock (`stock/`). `accept` refuses at once an order the
 * stock cannot serve (fewer unsold codes of its face value than its quantity, and no pre-order);
 * `reserve` draws the codes in the order's own transaction, so codes and debit commit together, and
 * a draw that comes up short (another order took them meanwhile) refuses the order with its debit
 * rolled back. A pre-order that cannot be filled whole takes nothing and waits PENDING; each step
 * (the worker's, brought forward by an import) tries the draw again. `step` hands the drawn codes
 * to the state machine, which stores them as the order's cards like any provider's.
 */
const PRE_ORDER_RECHECK_MS = 60_000;

export function createStockProvider(deps: {
  repository: StockRepository;
  codec: CardCodec;
  clock: Clock;
}): GiftcardProvider & { owns(trx: Kysely<Database>, transactionId: number): Promise<boolean> } {
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

  return {
    async accept({ productId, preOrder, quantity, unitPrice }) {
      if (preOrder) return;
      const available = await repository.available(productId, unitPrice, clock.now(), quantity);
      if (available < quantity) throw outOfStock(productId, unitPrice, available, quantity);
    },

    async reserve(trx, order) {
      const now = clock.now();
      const drawn = await draw(trx, order, now);
      const filled = drawn.length === order.quantity;
      if (!filled) {
        if (!order.preOrder) throw outOfStock(order.productId, order.unitPrice, drawn.length, order.quantity);
        await repository.release(trx, order.transactionId);
      }
      await repository.insertOrder(trx, {
        transaction_id: order.transactionId,
        product_id: order.productId,
        face_value: order.unitPrice,
        quantity: order.quantity,
        created_at: order.createdAt,
        filled_at: filled ? now : null,
      });
      // every code drawn: the order is settled in its own transaction (SUCCESSFUL with these cards)
      return filled ? cardsOf(drawn) : undefined;
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

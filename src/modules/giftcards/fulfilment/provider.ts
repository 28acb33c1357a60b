import type { OrderProvider, RefusedStep } from '../../../lib/fulfilment-provider.ts';

/**
 * The gift card provider: the shape of `lib/fulfilment-provider.ts` with gift card orders and steps.
 * `accept` refuses an order before any debit (no provider for the environment, out of stock without a
 * pre-order); `step` says what became of an accepted order. What a step means for the order's state,
 * the ledger and the stored codes is decided in `../orders/order-states.ts` only. A provider that
 * takes something in the order's own transaction (the code stock draws its codes) has `reserve`.
 */
export interface OrderRequest {
  productId: number;
  preOrder: boolean;
  quantity: number;
  /** The face value of one card, in the product's recipient currency (decimal text). */
  unitPrice: string;
}

export interface OrderToFulfil {
  transactionId: number;
  productId: number;
  quantity: number;
  /** The face value of one card, in the product's recipient currency (decimal text). */
  unitPrice: string;
  preOrder: boolean;
  createdAt: Date;
  status: string;
  /** Printed on the receipt; an upstream gets it with the order. */
  senderName: string;
  /** productAdditionalRequirements.userId, for the products that need one. */
  userId: string | null;
  /**
   * True for the step the placing request takes right after its commit: nothing was sent anywhere
   * for this order before it (a provider that calls out may then refuse an unreachable peer).
   */
  firstStep: boolean;
}

export interface IssuedCard {
  cardNumber: string;
  pinCode: string;
}

export type FulfilmentStep =
  | { status: 'SUCCESSFUL'; cards: IssuedCard[] }
  /** Not finished: look again at `nextCheckAt`. FAILED waits there for its refund. */
  | { status: 'PENDING' | 'PROCESSING' | 'FAILED'; nextCheckAt: Date }
  | { status: 'REFUNDED' }
  /** Refused by whoever fulfils it (an upstream's refusal): refunded, and its error answered. */
  | RefusedStep;

export type GiftcardProvider = OrderProvider<OrderRequest, OrderToFulfil, FulfilmentStep>;

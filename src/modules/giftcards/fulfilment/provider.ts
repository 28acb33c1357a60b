/**
 * The edge between an accepted order and whoever makes its cards (styleguide: providers behind an
 * interface). The order service asks a provider for one step at a time; what a step means for the
 * order's state, the ledger and the stored codes is decided in `../orders/order-states.ts` only.
 */
export interface OrderToFulfil {
  transactionId: number;
  productId: number;
  quantity: number;
  createdAt: Date;
  status: string;
}

export interface IssuedCard {
  cardNumber: string;
  pinCode: string;
}

export type FulfilmentStep =
  | { status: 'SUCCESSFUL'; cards: IssuedCard[] }
  /** Not finished: look again at `nextCheckAt`. FAILED waits there for its refund. */
  | { status: 'PENDING' | 'PROCESSING' | 'FAILED'; nextCheckAt: Date }
  | { status: 'REFUNDED' };

export interface FulfilmentProvider {
  /** False when no card can be issued now: only a pre-order is accepted then. */
  inStock(productId: number): boolean;
  step(order: OrderToFulfil, now: Date): FulfilmentStep;
}

import { createHash } from 'node:crypto';
import { AppError } from '../../../errors/error-codes.ts';
import type { FulfilmentStep, GiftcardProvider, IssuedCard, OrderToFulfil } from './provider.ts';
import { sandboxOutcomeOf } from './sandbox-test-values.ts';

/**
 * The sandbox's fulfilment: deterministic, no real value. The outcome depends on the product id
 * (`sandbox-test-values.ts`) and on the time elapsed since the order was accepted, so a restart or
 * the poller reaches the same answer as the request did. Codes are derived from the transaction id.
 */
export interface SimulatorTimings {
  processingMs: number;
  preOrderMs: number;
}

export function createSandboxSimulator(timings: SimulatorTimings): GiftcardProvider {
  return {
    accept({ productId, preOrder }) {
      // product 22 is out of stock: only a pre-order is taken
      if (sandboxOutcomeOf(productId) === 'PREORDER' && !preOrder) {
        throw new AppError(
          'UNPROCCESSABLE_ENTITY',
          `Product ${productId} is out of stock; order it with preOrder: true to be served when it is back`,
        );
      }
    },
    step(order: OrderToFulfil, now: Date): FulfilmentStep {
      const outcome = sandboxOutcomeOf(order.productId);
      const after = (ms: number) => new Date(order.createdAt.getTime() + ms);
      const due = (ms: number) => now.getTime() >= after(ms).getTime();
      const cards = () => issueCards(order, outcome === 'ALPHANUMERIC');
      switch (outcome) {
        case 'PROCESSING_THEN_SUCCESS':
          return due(timings.processingMs)
            ? { status: 'SUCCESSFUL', cards: cards() }
            : { status: 'PROCESSING', nextCheckAt: after(timings.processingMs) };
        case 'PREORDER':
          return due(timings.preOrderMs)
            ? { status: 'SUCCESSFUL', cards: cards() }
            : { status: 'PENDING', nextCheckAt: after(timings.preOrderMs) };
        case 'FAILED_THEN_REFUNDED':
          return due(timings.processingMs)
            ? { status: 'REFUNDED' }
            : { status: 'FAILED', nextCheckAt: after(timings.processingMs) };
        case 'REFUNDED':
          return { status: 'REFUNDED' };
        default:
          return { status: 'SUCCESSFUL', cards: cards() };
      }
    },
  };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Card i of a transaction: a 16-digit number and a 6-digit PIN (or letter codes for product 13). */
export function issueCards(
  order: Pick<OrderToFulfil, 'transactionId' | 'quantity'>,
  letters = false,
): IssuedCard[] {
  return Array.from({ length: order.quantity }, (_, i) => {
    const hash = createHash('sha256')
      .update(`airgift-sandbox-card:${order.transactionId}:${i + 1}`)
      .digest();
    if (letters) {
      const code = [...hash.subarray(0, 12)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
      return { cardNumber: code.match(/.{4}/g)?.join('-') ?? code, pinCode: code.slice(0, 6).toLowerCase() };
    }
    const digits = [...hash].map((b) => String(b % 10)).join('');
    return { cardNumber: digits.slice(0, 16), pinCode: digits.slice(16, 22) };
  });
}

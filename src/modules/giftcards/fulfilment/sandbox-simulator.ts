import { hash } from 'node:crypto';
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
  // Every sandbox order's cards are made here, on the order path: one hash call and one string per
  // code, no array of a character per byte.
  return Array.from({ length: order.quantity }, (_, i) => {
    const digest = sha256(`airgift-sandbox-card:${order.transactionId}:${i + 1}`);
    if (letters) {
      const code = symbolsOf(digest, 0, 12, ALPHABET);
      return { cardNumber: code.match(/.{4}/g)?.join('-') ?? code, pinCode: code.slice(0, 6).toLowerCase() };
    }
    return { cardNumber: symbolsOf(digest, 0, 16, DIGITS), pinCode: symbolsOf(digest, 16, 22, DIGITS) };
  });
}

const DIGITS = '0123456789';
const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer');

/** Bytes `from` to `to` of `bytes`, each as the symbol of `alphabet` at its value modulo the alphabet's length. */
function symbolsOf(bytes: Buffer, from: number, to: number, alphabet: string): string {
  let text = '';
  for (let i = from; i < to; i++) text += alphabet[bytes[i] % alphabet.length];
  return text;
}

import { AppError } from '../../../errors/error-codes.ts';
import type { GiftcardProvider } from './provider.ts';

/**
 * The provider of an environment that has none configured (live, in this version: decisions §7). It
 * refuses every order with 422 before anything is debited; an upstream or code-stock provider takes
 * its place when one is configured.
 */
export function unconfiguredProvider(environment: string): GiftcardProvider {
  return {
    accept({ productId }) {
      throw new AppError(
        'UNPROCCESSABLE_ENTITY',
        `Product ${productId} has no ${environment} fulfilment provider and cannot be ordered; nothing was debited`,
      );
    },
    step(order) {
      throw new Error(`gift card transaction ${order.transactionId}: no ${environment} fulfilment provider`);
    },
  };
}

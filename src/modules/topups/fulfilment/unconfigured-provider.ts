import { AppError } from '../../../errors/error-codes.ts';
import type { TopupProvider } from './provider.ts';

/**
 * The provider of an environment that has none configured (live, in this version: decisions §7). It
 * refuses every top-up with 422 before anything is debited; an upstream provider takes its place
 * when one is configured.
 */
export function unconfiguredProvider(environment: string): TopupProvider {
  return {
    accept() {
      const name = environment.charAt(0).toUpperCase() + environment.slice(1);
      throw new AppError(
        'OPERATOR_NOT_IN_SERVICE',
        `${name} top-ups need a fulfilment provider, and none is configured; nothing was debited`,
      );
    },
    step(order) {
      throw new Error(`top-up ${order.transactionId}: no ${environment} fulfilment provider`);
    },
  };
}

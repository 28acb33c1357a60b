import { GiftCards } from './giftcards.js';
import type { EnvironmentOptions } from './options.js';
import { Topups } from './topups.js';

/**
 * Both product clients from one credential pair of one environment (it gets tokens for either
 * product; the balance is shared). Each keeps its own token, as each product needs its own.
 *
 * @example
 * const airgift = new Airgift({ clientId, clientSecret, environment: 'sandbox' });
 * const balance = await airgift.topups.balance.get();
 * const page = await airgift.giftcards.products.list({ countryCode: 'US' });
 */
export class Airgift {
  readonly giftcards: GiftCards;
  readonly topups: Topups;

  constructor(options: EnvironmentOptions) {
    this.giftcards = new GiftCards(options);
    this.topups = new Topups(options);
  }
}

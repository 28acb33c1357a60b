import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { CardCodec } from '../../lib/card-codes.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Messaging } from '../messaging/index.ts';
import type { Countries, Fx } from '../reference/index.ts';
import type { UpstreamService } from '../upstream/index.ts';

/**
 * What a product module (gift cards, top-ups) is built from: the same object for both, passed
 * explicitly by `services.ts` (`createGiftcardServices(deps)`, `createTopupServices(deps)`), never
 * imported as singletons.
 */
export interface ProductDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  accounts: AccountsService;
  fx: Fx;
  countries: Countries;
  /** Live's upstream per product (`airgift upstream set ...`); without one configured, live refuses. */
  upstreams: UpstreamService;
  /** The redeem codes' codec (`CARD_CODES_KEY` or DATA_DIR/card-codes.key): cards, stock, PIN vouchers. */
  codec: CardCodec;
  /** The outbox of e-mails and text messages (modules/messaging): gift cards' recipient delivery. */
  messaging: Messaging;
}

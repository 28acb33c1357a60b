import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Countries, Fx } from '../reference/index.ts';
import type { OperatorCatalog } from './operator-catalog.ts';
import type { OperatorViews } from './operator-view.ts';

/** What the top-up module is built from; passed explicitly, never imported as singletons. */
export interface TopupDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'topupRecentRechargeSeconds' | 'topupSandboxProcessingSeconds'>;
  accounts: AccountsService;
  ledger: Ledger;
  fx: Fx;
  countries: Countries;
  catalog: OperatorCatalog;
  views: OperatorViews;
}

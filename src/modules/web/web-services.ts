import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { ChangeVersions } from '../../lib/change-versions.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TextSealer } from '../../lib/sealed-text.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { GiftcardServices } from '../giftcards/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Messaging } from '../messaging/index.ts';
import type { Fx } from '../reference/index.ts';
import type { TopupServices } from '../topups/index.ts';
import type { UpstreamService } from '../upstream/index.ts';
import { consoleRepository } from './console/console-repository.ts';
import { createConsoleService } from './console/console-service.ts';
import { createTransactionSearch } from './console/transaction-search.ts';
import { transactionSearchRepository } from './console/transaction-search-repository.ts';
import { dashboardRepository } from './dashboard/dashboard-repository.ts';
import { createDashboardService } from './dashboard/dashboard-service.ts';
import { openingEnvironments } from './opening-environment.ts';
import { createTransactionDetail } from './transactions/transaction-detail.ts';
import { transactionRepository } from './transactions/transaction-repository.ts';
import { usersRepository } from './users/users-repository.ts';
import { createUsersService } from './users/users-service.ts';
import { webMessages } from './users/web-messages.ts';

export interface WebDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<
    Config,
    'webSessionHours' | 'webLockoutFailures' | 'webLockoutMinutes' | 'webLockoutAddressFailures'
  >;
  accounts: AccountsService;
  ledger: Ledger;
  giftcards: GiftcardServices;
  topups: TopupServices;
  fx: Fx;
  changes?: ChangeVersions;
  /** Seals the users' TOTP secrets at rest. */
  totpSealer: TextSealer;
  /** The outbox of e-mails and SMS: the console's Outbox page. */
  messaging: Messaging;
  /** Seals the links of e-mailed invitations and password resets in their messages. */
  messageSealer: TextSealer;
  /** Where the low balance e-mail points. */
  dashboardUrl: string;
  /** Live fulfilment's upstreams: their status on the console's catalogue page. */
  upstreams?: Pick<UpstreamService, 'show'>;
  /** The audit log (modules/audit): its pages in the console, the lines of both pages' changes. */
  audit: AuditLog;
}

/**
 * The web module's services from their dependencies.
 *
 * @example
 * const web = createWebServices({ db, clock, config, accounts, ledger, giftcards, topups });
 * await web.users.createWithPassword('customer', 'sandbox@example.com', 2);
 */
export function createWebServices(deps: WebDeps) {
  const { db, clock, config, audit } = deps;
  // invitations, password resets and low balance warnings by e-mail (the outbox)
  const mail = webMessages({
    db,
    messaging: deps.messaging,
    sealer: deps.messageSealer,
    dashboardUrl: deps.dashboardUrl,
    clock,
  });
  const users = createUsersService({
    mail,
    repository: usersRepository(db),
    clock,
    sealer: deps.totpSealer,
    settings: {
      sessionHours: config.webSessionHours,
      lockout: {
        failures: config.webLockoutFailures,
        minutes: config.webLockoutMinutes,
        addressFailures: config.webLockoutAddressFailures,
      },
    },
  });
  const dashboard = createDashboardService({ ...deps, repository: dashboardRepository(db) });
  const console = createConsoleService({ ...deps, repository: consoleRepository(db), users });
  const transactions = transactionSearchRepository(db);
  const search = createTransactionSearch({ repository: transactions });
  const opening = openingEnvironments({ accounts: deps.accounts, transactions });
  // one transaction's page: its amounts, FX and ledger entries
  const transactionDetail = createTransactionDetail({ ...deps, repository: transactionRepository(db) });
  return { users, audit, dashboard, console, search, opening, transactionDetail };
}

export type WebServices = ReturnType<typeof createWebServices>;

/**
 * Funding by bank transfer (issue 28, migration 0024; README.md): the operator's bank details per
 * currency, the customers' announced transfers and the operator's confirmation (a FUNDING ledger
 * entry) or rejection, their e-mails, receipts and monthly statements. The admin API's routes are
 * here (funding-admin-routes.ts); the dashboard's and console's are in modules/web.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Messaging } from '../messaging/index.ts';
import { registerFundingMessages } from './funding-messages.ts';
import { fundingRepository } from './funding-repository.ts';
import { createFundingService } from './funding-service.ts';

/**
 * @example
 * const funding = createFunding({ db, clock, ledger, accounts, messaging, dashboardUrl, consoleUrl });
 * const t = await funding.announce(accountId, userId, { amount: '125.00', transferDate: '2026-11-02' });
 * await funding.confirm(t.transferId, 'operator@example.com');
 */
export function createFunding(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ledger: Ledger;
  accounts: AccountsService;
  messaging: Messaging;
  dashboardUrl: string;
  consoleUrl: string;
  /** Which web users' roles hear of transfers (those allowed to move money). */
  recipientRoles: { customer: string[]; operator: string[] };
}) {
  const repository = fundingRepository(deps.db, deps.recipientRoles);
  registerFundingMessages(deps.messaging, repository, deps);
  return createFundingService({ ...deps, repository });
}

export { fundingAdminRoutes } from './funding-admin-routes.ts';
export { accountOfReference, referenceOf } from './funding-reference.ts';
export * from './funding-schemas.ts';
export { FUNDING_ENVIRONMENT, type FundingService, STATEMENT_ENTRY_LIMIT } from './funding-service.ts';

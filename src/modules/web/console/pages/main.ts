import { start } from '../../ui/shell.ts';
import { securityPage } from '../../users/pages/security.ts';
import { teamPage } from '../../users/pages/team.ts';
import { accountPage } from './account.ts';
import { accountsPage } from './accounts.ts';
import { auditPage } from './audit.ts';
import { cataloguePage } from './catalogue.ts';
import { fundingPage } from './funding.ts';
import { operatorsPage } from './operators.ts';
import { outboxPage } from './outbox.ts';
import { reportsPage } from './reports.ts';
import { requestsPage } from './requests.ts';
import { transactionPage } from './transaction.ts';
import { transactionsPage } from './transactions.ts';

/**
 * The operator console's entry (bundled into its app.js) and router table: one page per file, in
 * the order of the navigation; the first is the default. Every change a page makes is recorded in
 * the audit log server-side (modules/audit).
 */
void start('console', [
  accountsPage,
  accountPage,
  transactionsPage,
  fundingPage,
  transactionPage,
  reportsPage,
  cataloguePage,
  operatorsPage,
  requestsPage,
  auditPage,
  outboxPage,
  teamPage,
  securityPage,
]);

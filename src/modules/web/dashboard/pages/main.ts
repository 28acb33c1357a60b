import { h } from '../../ui/dom.ts';
import { currentRoute, go, type PageDef, start } from '../../ui/shell.ts';
import { environmentSelect, envOf } from '../../ui/widgets.ts';
import { securityPage } from '../../users/pages/security.ts';
import { teamPage } from '../../users/pages/team.ts';
import { addFundsPage } from './add-funds.ts';
import { balancePage } from './balance.ts';
import { brandingPage } from './branding.ts';
import { credentialsPage } from './credentials.ts';
import { deliveryPage } from './delivery.ts';
import { docsPage } from './docs.ts';
import { overviewPage } from './overview.ts';
import { receiptPage } from './receipt.ts';
import { requestsPage } from './requests.ts';
import { settingsPage } from './settings.ts';
import { statementsPage } from './statements.ts';
import { transactionPage } from './transaction.ts';
import { transactionsPage } from './transactions.ts';
import { webhooksPage } from './webhooks.ts';

/**
 * The account dashboard's entry (bundled into its app.js) and router table: one page per file, in
 * the order of the navigation; the first is the default. Every page shows one environment (live or
 * sandbox, `?environment=` in the address, chosen in the header).
 */
const PAGES: PageDef[] = [
  overviewPage,
  credentialsPage,
  transactionsPage,
  transactionPage,
  deliveryPage,
  balancePage,
  addFundsPage,
  statementsPage,
  receiptPage,
  requestsPage,
  webhooksPage,
  brandingPage,
  docsPage,
  settingsPage,
  teamPage,
  securityPage,
];

/** The header's environment select: it keeps the page and changes `?environment=`. */
function environmentPicker(): Node[] {
  const picker = environmentSelect(envOf(currentRoute()));
  picker.id = 'environment-picker';
  picker.addEventListener('change', () => {
    const route = currentRoute();
    go(route.path === '/' ? '/overview' : route.path, { environment: picker.value });
  });
  window.addEventListener('hashchange', () => {
    picker.value = envOf(currentRoute());
  });
  return [h('label', { for: picker.id, class: 'env-label' }, 'Environment'), picker];
}

void start('dashboard', PAGES, environmentPicker);

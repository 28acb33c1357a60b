/** The accounts module: accounts, their credentials and their balances as the specs show them. */

export type { AccountRow } from './accounts-repository.ts';
export { accountsRepository } from './accounts-repository.ts';
export {
  type AccountChanges,
  type AccountsService,
  type CreateAccountInput,
  createAccountInputOf,
  createAccountsService,
} from './accounts-service.ts';
export { BALANCE_TAG, balanceDocs, balanceRoute } from './balance-route.ts';

/** The accounts module: accounts, their credentials and their balances as the specs show them. */

export type { AccountRow } from './accounts-repository.ts';
export { accountsRepository } from './accounts-repository.ts';
export { type AccountsService, type CreateAccountInput, createAccountsService } from './accounts-service.ts';
export { balanceRoute } from './balance-route.ts';

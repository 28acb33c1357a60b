/** The accounts module: accounts, their credentials and their balances as the specs show them. */
export { accountsRepository } from './accounts-repository.ts';
export { type AccountsService, type CreateAccountInput, createAccountsService } from './accounts-service.ts';
export { balanceRoute } from './balance-route.ts';

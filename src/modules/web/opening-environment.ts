import type { Environment } from '../../db/schema.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { TransactionSearchRepository } from './console/transaction-search-repository.ts';

/**
 * The environment a page opens on when its address names none (issue 28: a sandbox-only account
 * landed on an empty Live view). The dashboard: live when the account has a live credential or a
 * live transaction, else sandbox. The console: live when any account has a live transaction, else
 * sandbox when any has a sandbox one, else live.
 */
export function openingEnvironments(deps: {
  accounts: Pick<AccountsService, 'credentialsOf'>;
  transactions: Pick<TransactionSearchRepository, 'any'>;
}) {
  return {
    async ofAccount(accountId: number): Promise<Environment> {
      const credentials = await deps.accounts.credentialsOf(accountId);
      if (credentials.some((c) => c.environment === 'live')) return 'live';
      return (await deps.transactions.any('live', accountId)) ? 'live' : 'sandbox';
    },

    async ofPlatform(): Promise<Environment> {
      if (await deps.transactions.any('live')) return 'live';
      return (await deps.transactions.any('sandbox')) ? 'sandbox' : 'live';
    },
  };
}

export type OpeningEnvironments = ReturnType<typeof openingEnvironments>;

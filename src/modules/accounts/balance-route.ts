import type { FastifyInstance } from 'fastify';
import type { OperationDocs } from '../../http/openapi.ts';
import { principalOf } from '../../http/request-context.ts';
import { Balance } from '../../http/schemas.ts';
import type { AccountsService } from './accounts-service.ts';

/**
 * `GET /accounts/balance` on the product bases: the one balance of the caller's account in the
 * token's environment, shared by both products (decisions §5). Kept while the balance is unchanged
 * (`cache: 'balance'`, http/response-cache.ts).
 */
export function balanceRoute(app: FastifyInstance, accounts: AccountsService, scope: string) {
  app.get(
    '/accounts/balance',
    { schema: { response: { 200: Balance } }, config: { access: { scope }, cache: 'balance' } },
    async (request) => {
      const principal = principalOf(request);
      return accounts.balanceOf(principal.accountId, principal.environment);
    },
  );
}

/** The balance's tag in both products' OpenAPI documents. */
export const BALANCE_TAG = {
  name: 'Account',
  description: 'The balance of the account the token belongs to.',
};

/** `GET /accounts/balance` in a product's OpenAPI document; `more`, the product's own last sentence. */
export function balanceDocs(more: string): OperationDocs {
  return {
    tag: BALANCE_TAG.name,
    summary: 'Get the account balance',
    description: `The balance of the account the token belongs to, in its currency. ${more}`,
  };
}

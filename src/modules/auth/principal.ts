import type { Environment } from '../../db/schema.ts';

/**
 * Who is calling a product base: the account and environment of the token's credential, and the
 * scopes the token carries. The token service makes it; services take it to scope every read and
 * write to the caller's account and environment.
 */
export interface Principal {
  accountId: number;
  environment: Environment;
  clientId: string;
  scopes: string[];
}

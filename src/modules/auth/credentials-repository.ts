import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';

/** SQL for credentials. Only this file reads or writes the `credentials` table. */
export interface CredentialRow {
  clientId: string;
  accountId: number;
  environment: Environment;
  secretHash: string;
  scopes: string[];
  revokedAt: Date | null;
  createdAt: Date;
}

export function credentialsRepository(db: Kysely<Database>) {
  const columns = [
    'client_id as clientId',
    'account_id as accountId',
    'environment',
    'secret_hash as secretHash',
    'scopes',
    'revoked_at as revokedAt',
    'created_at as createdAt',
  ] as const;

  return {
    async insert(
      trx: Kysely<Database>,
      row: {
        clientId: string;
        accountId: number;
        environment: Environment;
        secretHash: string;
        scopes: string[];
      },
    ) {
      await trx
        .insertInto('credentials')
        .values({
          client_id: row.clientId,
          account_id: row.accountId,
          environment: row.environment,
          secret_hash: row.secretHash,
          scopes: row.scopes,
        })
        .execute();
    },

    async find(clientId: string): Promise<CredentialRow | undefined> {
      return db
        .selectFrom('credentials')
        .select(columns)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },

    async listForAccount(accountId: number): Promise<CredentialRow[]> {
      return db
        .selectFrom('credentials')
        .select(columns)
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
    },

    /** Marks a credential revoked; returns false when it does not exist. Revoking twice keeps the first time. */
    async revoke(clientId: string, at: Date): Promise<boolean> {
      const result = await db
        .updateTable('credentials')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type CredentialsRepository = ReturnType<typeof credentialsRepository>;

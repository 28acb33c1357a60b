import type { Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

/** SQL for credentials. Only this file reads or writes the `credentials` table. */
export interface CredentialRow {
  clientId: string;
  accountId: number;
  environment: Environment;
  secretHash: string;
  scopes: string[];
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * How long a credential read for authenticating a request may be reused. Revocation in this process
 * clears it at once; another process of the same deployment sees a revocation within this time.
 */
const AUTH_CACHE_MS = 1000;

export function credentialsRepository(db: Kysely<Database>, clock: Clock) {
  const authCache = new Map<string, { row: CredentialRow | undefined; at: number }>();
  const columns = [
    'client_id as clientId',
    'account_id as accountId',
    'environment',
    'secret_hash as secretHash',
    'scopes',
    'revoked_at as revokedAt',
    'created_at as createdAt',
    'last_used_at as lastUsedAt',
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

    /** `find` for the auth hook: every request checks its credential, so a short cache saves a query. */
    async findForAuth(clientId: string): Promise<CredentialRow | undefined> {
      const now = clock.now().getTime();
      const hit = authCache.get(clientId);
      if (hit && now - hit.at < AUTH_CACHE_MS) return hit.row;
      const row = await this.find(clientId);
      if (authCache.size > 10_000) authCache.clear();
      authCache.set(clientId, { row, at: now });
      return row;
    },

    async listForAccount(accountId: number): Promise<CredentialRow[]> {
      return db
        .selectFrom('credentials')
        .select(columns)
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
    },

    /** Records that a token was issued for the credential (the dashboard shows it as its last use). */
    async touch(clientId: string, at: Date): Promise<void> {
      await db
        .updateTable('credentials')
        .set({ last_used_at: at })
        .where('client_id', '=', clientId)
        .execute();
    },

    /** Replaces a credential's secret hash by another of the same secret, unless it changed meanwhile. */
    async replaceSecretHash(clientId: string, old: string, hash: string): Promise<void> {
      await db
        .updateTable('credentials')
        .set({ secret_hash: hash })
        .where('client_id', '=', clientId)
        .where('secret_hash', '=', old)
        .execute();
    },

    /** Whether any credential still has a secret hash of the old, slow kind (scrypt). */
    async anyLegacySecretHash(): Promise<boolean> {
      const row = await db
        .selectFrom('credentials')
        .select('client_id')
        .where('secret_hash', 'like', 'scrypt$%')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Marks a credential revoked; returns false when it does not exist. Revoking twice keeps the first time. */
    async revoke(clientId: string, at: Date): Promise<boolean> {
      authCache.delete(clientId);
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

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { type WebDatabase, type WebUserKind, withWebTables } from './web-tables.ts';

/** SQL for web users, their invitations, sessions and failed sign-ins. Only this file touches them. */
export interface WebUserRow {
  id: number;
  kind: WebUserKind;
  accountId: number | null;
  email: string;
  passwordHash: string | null;
  createdAt: Date;
  /** two-step sign-in (TOTP) is on */
  totpEnabled: boolean;
  /** what the user may do (modules/web/permissions.ts) */
  role: string;
}

/** What a change of a teammate's role (or their removal) came to. */
export type MemberChange = 'changed' | 'not-found' | 'last-keeper';

const USER_COLUMNS = [
  'web_users.id',
  'web_users.kind',
  'web_users.account_id as accountId',
  'web_users.email',
  'web_users.password_hash as passwordHash',
  'web_users.created_at as createdAt',
  'web_users.totp_enabled as totpEnabled',
  'web_users.role',
] as const;

/** The role an account (or the console) always keeps one active user of. */
const KEEPER = { customer: 'owner', operator: 'admin' } as const;

export function usersRepository(appDb: Kysely<Database>) {
  const db: Kysely<WebDatabase> = withWebTables(appDb);
  const num = <T extends { id: number | string; accountId: number | string | null }>(row: T): T => ({
    ...row,
    id: Number(row.id),
    accountId: row.accountId === null ? null : Number(row.accountId),
  });

  return {
    async findByEmail(kind: WebUserKind, email: string): Promise<WebUserRow | undefined> {
      const row = await db
        .selectFrom('web_users')
        .select(USER_COLUMNS)
        .where('kind', '=', kind)
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      return row && num(row);
    },

    async findById(id: number): Promise<WebUserRow | undefined> {
      const row = await db
        .selectFrom('web_users')
        .select(USER_COLUMNS)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && num(row);
    },

    /**
     * The user of that kind and e-mail, made when missing with `role` (an invitation again keeps the
     * same user and role); a removed user comes back, of `accountId`, with `role`.
     */
    async upsert(
      kind: WebUserKind,
      email: string,
      accountId: number | null,
      at: Date,
      role: string,
    ): Promise<WebUserRow> {
      const found = await this.findByEmail(kind, email);
      if (found) return found;
      const revived = await db
        .updateTable('web_users')
        .set({ removed_at: null, account_id: accountId, role })
        .where('kind', '=', kind)
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .where('removed_at', 'is not', null)
        .returning(USER_COLUMNS)
        .executeTakeFirst();
      if (revived) return num(revived);
      const row = await db
        .insertInto('web_users')
        .values({ kind, email, account_id: accountId, created_at: at, role })
        .returning(USER_COLUMNS)
        .executeTakeFirstOrThrow();
      return num(row);
    },

    /** The role of a user who has not set a password yet (invited again with another role). */
    async setPendingRole(userId: number, role: string): Promise<void> {
      await db
        .updateTable('web_users')
        .set({ role })
        .where('id', '=', userId)
        .where('password_hash', 'is', null)
        .execute();
    },

    /**
     * Changes a member's role, or removes them (`role` null), unless that leaves their account (or
     * the console) without an active owner (admin): the members are locked first, so two owners
     * demoting each other at once cannot both pass. A removed user loses their password, two-step
     * sign-in, recovery codes, sessions and unused links in the same transaction.
     */
    async changeMember(
      kind: WebUserKind,
      accountId: number | null,
      userId: number,
      role: string | null,
      at: Date,
    ): Promise<MemberChange> {
      return appDb.transaction().execute(async (trx) => {
        const t = withWebTables(trx);
        const members = await t
          .selectFrom('web_users')
          .select(['id', 'role', 'password_hash'])
          .where('kind', '=', kind)
          .where((eb) =>
            accountId === null ? eb('account_id', 'is', null) : eb('account_id', '=', accountId),
          )
          .where('removed_at', 'is', null)
          .forUpdate()
          .execute();
        const target = members.find((m) => Number(m.id) === userId);
        if (!target) return 'not-found';
        const keeper = KEEPER[kind];
        const othersKeep = members.some(
          (m) => Number(m.id) !== userId && m.role === keeper && m.password_hash !== null,
        );
        if (target.role === keeper && role !== keeper && !othersKeep) return 'last-keeper';
        if (role !== null) {
          await t.updateTable('web_users').set({ role }).where('id', '=', userId).execute();
          return 'changed';
        }
        await t
          .updateTable('web_users')
          .set({
            removed_at: at,
            password_hash: null,
            totp_secret: null,
            totp_enabled: false,
            totp_last_step: null,
          })
          .where('id', '=', userId)
          .execute();
        await t.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
        await t.deleteFrom('web_recovery_codes').where('user_id', '=', userId).execute();
        await t
          .updateTable('web_invitations')
          .set({ used_at: at })
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .execute();
        return 'changed';
      });
    },

    async setPassword(userId: number, passwordHash: string): Promise<void> {
      await db
        .updateTable('web_users')
        .set({ password_hash: passwordHash })
        .where('id', '=', userId)
        .execute();
    },

    async listUsers(kind: WebUserKind, accountId?: number) {
      let q = db
        .selectFrom('web_users')
        .select(USER_COLUMNS)
        .where('kind', '=', kind)
        .where('removed_at', 'is', null);
      if (accountId !== undefined) q = q.where('account_id', '=', accountId);
      return (await q.orderBy('id').execute()).map(num);
    },

    /** The invitation (or password reset) and, in the same transaction, `alsoInTrx` (its e-mail). */
    async insertInvitation(
      tokenHash: string,
      userId: number,
      expiresAt: Date,
      alsoInTrx?: (trx: Kysely<Database>) => Promise<void>,
    ): Promise<void> {
      await appDb.transaction().execute(async (trx) => {
        await withWebTables(trx)
          .insertInto('web_invitations')
          .values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt })
          .execute();
        await alsoInTrx?.(trx);
      });
    },

    /** Marks an unused, unexpired invitation used and returns its user id; undefined when there is none. */
    async useInvitation(tokenHash: string, now: Date): Promise<number | undefined> {
      const row = await db
        .updateTable('web_invitations')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      return row && Number(row.user_id);
    },

    async insertSession(s: {
      tokenHash: string;
      userId: number;
      csrfToken: string;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db
        .insertInto('web_sessions')
        .values({
          token_hash: s.tokenHash,
          user_id: s.userId,
          csrf_token: s.csrfToken,
          created_at: s.createdAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },

    /** The unexpired session of that token hash with its user. */
    async findSession(tokenHash: string, now: Date) {
      const row = await db
        .selectFrom('web_sessions')
        .innerJoin('web_users', 'web_users.id', 'web_sessions.user_id')
        .select([...USER_COLUMNS, 'web_sessions.csrf_token as csrfToken'])
        .where('web_sessions.token_hash', '=', tokenHash)
        .where('web_sessions.expires_at', '>', now)
        .where('web_users.removed_at', 'is', null)
        .executeTakeFirst();
      return row && num(row);
    },

    async deleteSession(tokenHash: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
    },

    /** Ends every session of a user (a new password). */
    async deleteSessionsOf(userId: number): Promise<void> {
      await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
    },

    /** The user's TOTP secret (sealed), whether it is confirmed, and the last step accepted. */
    async totpOf(userId: number) {
      const row = await db
        .selectFrom('web_users')
        .select(['totp_secret as secret', 'totp_enabled as enabled', 'totp_last_step as lastStep'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return row && { ...row, lastStep: row.lastStep === null ? null : Number(row.lastStep) };
    },

    /** A new pending secret (enrolment), or none (TOTP off); either way no step is used yet. */
    async setTotpSecret(userId: number, sealedSecret: string | null): Promise<void> {
      await db
        .updateTable('web_users')
        .set({ totp_secret: sealedSecret, totp_enabled: false, totp_last_step: null })
        .where('id', '=', userId)
        .execute();
    },

    /**
     * Records that the code of `step` was used (and, with `enable`, confirms the secret), unless a
     * step as late was already used: one statement, so two requests with one code cannot both pass.
     */
    async useTotpStep(userId: number, step: number, enable: boolean): Promise<boolean> {
      const row = await db
        .updateTable('web_users')
        .set({ totp_last_step: step, ...(enable ? { totp_enabled: true } : {}) })
        .where('id', '=', userId)
        .where('totp_secret', 'is not', null)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user's recovery codes become these (SHA-256 each); the older ones are deleted. */
    async replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
      await appDb.transaction().execute(async (trx) => {
        const t = withWebTables(trx);
        await t.deleteFrom('web_recovery_codes').where('user_id', '=', userId).execute();
        if (codeHashes.length === 0) return;
        await t
          .insertInto('web_recovery_codes')
          .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
      });
    },

    /** Marks an unused recovery code used: one statement, so a code passes once only. */
    async useRecoveryCode(userId: number, codeHash: string, at: Date): Promise<boolean> {
      const row = await db
        .updateTable('web_recovery_codes')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async recoveryCodesLeft(userId: number): Promise<number> {
      const row = await db
        .selectFrom('web_recovery_codes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async recordFailure(kind: WebUserKind, email: string, ip: string | null, at: Date): Promise<void> {
      await db
        .insertInto('web_sign_in_failures')
        .values({ kind, email: email.toLowerCase(), ip, at })
        .execute();
    },

    /** Failed sign-ins of one e-mail from one address since `since` (index: kind, lower(email), at). */
    async failuresSince(kind: WebUserKind, email: string, ip: string | null, since: Date): Promise<number> {
      const row = await db
        .selectFrom('web_sign_in_failures')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('kind', '=', kind)
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .where('at', '>', since)
        .where((eb) => (ip === null ? eb('ip', 'is', null) : eb('ip', '=', ip)))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Failed sign-ins from one address since `since`, whatever the e-mail and page (index: ip, at). */
    async addressFailuresSince(ip: string, since: Date): Promise<number> {
      const row = await db
        .selectFrom('web_sign_in_failures')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('ip', '=', ip)
        .where('at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Forgets one e-mail's failures from one address (its user signed in from there). */
    async clearFailures(kind: WebUserKind, email: string, ip: string | null): Promise<void> {
      await db
        .deleteFrom('web_sign_in_failures')
        .where('kind', '=', kind)
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .where((eb) => (ip === null ? eb('ip', 'is', null) : eb('ip', '=', ip)))
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;

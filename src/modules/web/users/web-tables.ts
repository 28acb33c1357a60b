import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/**
 * The tables of migrations 0013, 0014 and 0025 as Kysely sees them: the web users (dashboard customers and console
 * operators), their invitations, sessions and failed sign-ins, and the dashboard's record of code
 * reveals (the audit log, once here, is modules/audit's since migration 0022). Kept beside the module that alone reads and writes them.
 */
type WrittenAt = ColumnType<Date, Date, never>;

export type WebUserKind = 'customer' | 'operator';

export interface WebUsersTable {
  id: Generated<number>;
  kind: WebUserKind;
  account_id: number | null;
  email: string;
  password_hash: string | null;
  created_at: WrittenAt;
  /** migration 0014: the TOTP secret, sealed (lib/sealed-text.ts); pending until totp_enabled */
  totp_secret: string | null;
  totp_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** the last time step whose code was accepted (a code is never accepted twice) */
  totp_last_step: ColumnType<string | null, number | null | undefined, number | null>;
  /** migration 0025: the user's role (modules/web/permissions.ts) */
  role: string;
  /** when an owner (an admin) removed them; null while they are a member */
  removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** migration 0025: two-step sign-in's recovery codes, as SHA-256, each used once. */
export interface WebRecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: Date | null;
}

export interface WebInvitationsTable {
  token_hash: string;
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
}

export interface WebSessionsTable {
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: WrittenAt;
  expires_at: Date;
}

export interface WebSignInFailuresTable {
  id: Generated<number>;
  kind: WebUserKind;
  email: string;
  ip: string | null;
  at: WrittenAt;
}

export interface WebCodeRevealsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  environment: string;
  transaction_id: number;
  ip: string | null;
  at: WrittenAt;
}

export type WebTables = {
  web_users: WebUsersTable;
  web_invitations: WebInvitationsTable;
  web_sessions: WebSessionsTable;
  web_sign_in_failures: WebSignInFailuresTable;
  web_code_reveals: WebCodeRevealsTable;
  web_recovery_codes: WebRecoveryCodesTable;
};

export type WebDatabase = Database & WebTables;

/** The app's Kysely seen with the web tables too (the same connection, no copy). */
export function withWebTables(db: Kysely<Database>): Kysely<WebDatabase> {
  return db.withTables<WebTables>();
}

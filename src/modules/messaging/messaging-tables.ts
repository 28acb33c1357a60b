import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';

/**
 * The tables of migration 0020 as Kysely sees them: the outbox (`messages`), the redeem links of gift
 * card orders, their reveals and one-time codes, and the accounts' branding. Kept beside the module
 * that alone reads and writes them.
 */
type WrittenAt = ColumnType<Date, Date, never>;
type Stamp = ColumnType<Date, Date, Date>;
type MaybeStamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export type MessageChannel = 'email' | 'sms';
export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'failed' | 'captured' | 'unsent';

export interface MessagesTable {
  id: Generated<number>;
  kind: string;
  channel: MessageChannel;
  recipient: string;
  account_id: number | null;
  environment: Environment | null;
  transaction_id: number | null;
  link_id: number | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  secret_sealed: string | null;
  locale: ColumnType<string, string | undefined, string>;
  status: MessageStatus;
  attempts: ColumnType<number, number | undefined, number>;
  send_after: Stamp;
  next_attempt_at: MaybeStamp;
  last_error: string | null;
  provider_id: string | null;
  created_at: WrittenAt;
  updated_at: Stamp;
  sent_at: MaybeStamp;
  lease_until: MaybeStamp;
  leased_by: string | null;
}

export interface RedeemLinksTable {
  id: Generated<number>;
  transaction_id: number;
  token_hash: string | null;
  created_at: WrittenAt;
  revoked_at: MaybeStamp;
}

export interface RedeemRevealsTable {
  id: Generated<number>;
  link_id: number;
  transaction_id: number;
  ip: string | null;
  at: WrittenAt;
}

export interface RedeemCodesTable {
  id: Generated<number>;
  link_id: number;
  ip: string | null;
  tries: ColumnType<number, number | undefined, number>;
  created_at: WrittenAt;
  expires_at: Date;
  used_at: MaybeStamp;
}

export interface AccountBrandingTable {
  account_id: number;
  display_name: string | null;
  logo_url: string | null;
  color: string | null;
  footer: string | null;
  code_in_email: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Stamp;
}

export type MessagingTables = {
  messages: MessagesTable;
  redeem_links: RedeemLinksTable;
  redeem_reveals: RedeemRevealsTable;
  redeem_codes: RedeemCodesTable;
  account_branding: AccountBrandingTable;
};

export type MessagingDatabase = Database & MessagingTables;

const seen = new WeakMap<Kysely<Database>, Kysely<MessagingDatabase>>();

/**
 * The app's Kysely seen with the messaging tables too (the same connection, no copy). One per
 * instance (a transaction's included): `withTables` builds a new Kysely each call, which the outbox
 * did for every message it recorded.
 */
export function withMessagingTables(db: Kysely<Database>): Kysely<MessagingDatabase> {
  let typed = seen.get(db);
  if (!typed) {
    typed = db.withTables<MessagingTables>();
    seen.set(db, typed);
  }
  return typed;
}

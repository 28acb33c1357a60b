import { type Kysely, sql } from 'kysely';
import { executePrepared, runCompiled } from '../../../db/prepared.ts';
import type { Database, Environment } from '../../../db/schema.ts';
import { createGathering } from '../../group-commit/index.ts';
import { withMessagingTables } from '../../messaging/index.ts';

/** What a recipient's message and the redeem page show of an order, its product and its account. */
export interface DeliveryOrder {
  id: number;
  accountId: number;
  environment: Environment;
  status: string;
  quantity: number;
  unitPrice: string;
  recipientCurrencyCode: string;
  productName: string;
  brandName: string;
  productLogoUrl: string | null;
  redeemConcise: string | null;
  redeemVerbose: string | null;
  senderName: string;
  recipientEmail: string | null;
  recipientPhone: string | null;
  smsFee: string;
  accountName: string;
  branding: {
    displayName: string | null;
    logoUrl: string | null;
    color: string | null;
    footer: string | null;
    codeInEmail: boolean;
  };
}

export interface RedeemLinkRow {
  id: number;
  transaction_id: number;
  token_hash: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * The SQL of recipient delivery: the order as its messages and page show it, redeem links, reveals,
 * one-time codes and the accounts' branding (tables of migration 0020).
 */
export function deliveryRepository(appDb: Kysely<Database>) {
  const db = withMessagingTables(appDb);
  const on = (trx?: Kysely<Database>) => (trx ? withMessagingTables(trx) : db);

  // The order as its messages show it: the outbox reads it for every message it sends, so it is
  // compiled once and runs as a prepared statement (db/prepared.ts); the reads of the messages the
  // outbox renders at the same moment are one statement (`ordersQuery`, the ids as one array
  // parameter, `= ANY`: an index scan of the key in any plan; the ids as a JSON set, `IN (SELECT ...)`,
  // were planned as a hash join over every order in the table, once the plan was generic).
  const orderSelect = db
    .selectFrom('giftcard_transactions as t')
    .innerJoin('giftcard_products as p', 'p.id', 't.product_id')
    .innerJoin('giftcard_brands as b', 'b.id', 'p.brand_id')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('account_branding as ab', 'ab.account_id', 't.account_id')
    .select([
      't.id',
      't.account_id',
      't.environment',
      't.status',
      't.quantity',
      't.unit_price',
      't.recipient_currency_code',
      't.product_name',
      't.brand_name',
      't.sender_name',
      't.recipient_email',
      't.recipient_phone',
      't.sms_fee',
      'p.logo_urls',
      'b.logo_url',
      'p.redeem_concise',
      'p.redeem_verbose',
      'b.redeem_concise as brand_concise',
      'b.redeem_verbose as brand_verbose',
      'a.name as account_name',
      'ab.display_name',
      'ab.logo_url as brand_logo',
      'ab.color',
      'ab.footer',
      'ab.code_in_email',
    ]);
  const orderQuery = orderSelect.where('t.id', '=', 0).compile();
  const ordersQuery = orderSelect.where(sql<boolean>`t.id = ANY(${[]}::bigint[])`).compile();
  type OrderRow = Awaited<ReturnType<typeof orderSelect.executeTakeFirstOrThrow>>;

  const orders = createGathering<number, DeliveryOrder | undefined>({
    gathers: () => true,
    one: async (conn, id) => {
      const [row] = (await runCompiled(conn, orderQuery, [id])).rows;
      return row ? deliveryOrderOf(row) : undefined;
    },
    many: async (conn, ids) => {
      const { rows } = await runCompiled(conn, ordersQuery, [ids]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => {
        const row = byId.get(id);
        return row ? deliveryOrderOf(row) : undefined;
      });
    },
  });

  function deliveryOrderOf(row: OrderRow): DeliveryOrder {
    return {
      id: row.id,
      accountId: row.account_id,
      environment: row.environment,
      status: row.status,
      quantity: row.quantity,
      unitPrice: String(row.unit_price),
      recipientCurrencyCode: row.recipient_currency_code,
      productName: row.product_name,
      brandName: row.brand_name,
      productLogoUrl: row.logo_urls?.[0] ?? row.logo_url ?? null,
      redeemConcise: row.redeem_concise ?? row.brand_concise ?? null,
      redeemVerbose: row.redeem_verbose ?? row.brand_verbose ?? null,
      senderName: row.sender_name,
      recipientEmail: row.recipient_email,
      recipientPhone: row.recipient_phone,
      smsFee: String(row.sms_fee),
      accountName: row.account_name,
      branding: {
        displayName: row.display_name ?? null,
        logoUrl: row.brand_logo ?? null,
        color: row.color ?? null,
        footer: row.footer ?? null,
        codeInEmail: row.code_in_email ?? false,
      },
    };
  }

  // The links of the messages rendered at the same moment, with their token hashes stored the first
  // time, in one statement (`linkToSend`): on the embedded database each write of its own is a
  // durable commit.
  const links = createGathering<{ id: number; hash: string }, RedeemLinkRow | undefined>({
    gathers: () => true,
    one: async (conn, { id, hash }) => {
      const { rows } = await executePrepared(
        conn,
        sql<RedeemLinkRow>`
          WITH stored AS (
            UPDATE redeem_links SET token_hash = ${hash}
            WHERE id = ${id} AND token_hash IS NULL AND revoked_at IS NULL
          )
          SELECT * FROM redeem_links WHERE id = ${id}`,
      );
      return rows[0];
    },
    many: async (conn, items) => {
      const ids = items.map((i) => i.id);
      const hashes = items.map((i) => i.hash);
      const { rows } = await executePrepared(
        conn,
        // the ids as an array (`= ANY`): the links are found by their key in any plan (see `ordersQuery`)
        sql<RedeemLinkRow>`
          WITH input AS (
            SELECT DISTINCT ON (id) id, hash FROM unnest(${ids}::bigint[], ${hashes}::text[]) AS i (id, hash)
          ), stored AS (
            UPDATE redeem_links AS l SET token_hash = input.hash FROM input
            WHERE l.id = ANY(${ids}::bigint[]) AND l.id = input.id AND l.token_hash IS NULL AND l.revoked_at IS NULL
          )
          SELECT l.* FROM redeem_links AS l WHERE l.id = ANY(${ids}::bigint[])`,
      );
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      return items.map((i) => byId.get(i.id));
    },
  });

  return {
    /** The order (read with the others read at the same moment, unless in `trx`). */
    async order(transactionId: number, trx?: Kysely<Database>): Promise<DeliveryOrder | undefined> {
      if (trx) {
        const [row] = (await runCompiled(on(trx), orderQuery, [transactionId])).rows;
        return row ? deliveryOrderOf(row) : undefined;
      }
      return orders.run(appDb, transactionId);
    },

    /** True when the order already has its (one) REFUND entry. */
    async refunded(trx: Kysely<Database>, transactionId: number): Promise<boolean> {
      const row = await trx
        .selectFrom('ledger_entries')
        .select('id')
        .where('product', '=', 'giftcards')
        .where('transaction_id', '=', transactionId)
        .where('kind', '=', 'REFUND')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Locks the order's row for the rest of `trx` (a resend's: concurrent resends go one by one). */
    async lockOrder(trx: Kysely<Database>, id: number): Promise<void> {
      await trx.selectFrom('giftcard_transactions').select('id').where('id', '=', id).forUpdate().execute();
    },

    /** Whom the order's message goes to (read in the resend's transaction, after a correction). */
    async recipientOf(trx: Kysely<Database>, id: number) {
      return trx
        .selectFrom('giftcard_transactions')
        .select(['account_id', 'environment', 'recipient_email', 'recipient_phone'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    },

    /** A resend's corrected address, on the order's row (in the resend's transaction). */
    async correctRecipient(
      trx: Kysely<Database>,
      id: number,
      input: { recipientEmail?: string; recipientPhone?: { e164: string; country: string } },
    ): Promise<void> {
      await trx
        .updateTable('giftcard_transactions')
        .set({
          ...(input.recipientEmail !== undefined ? { recipient_email: input.recipientEmail } : {}),
          ...(input.recipientPhone
            ? {
                recipient_phone: input.recipientPhone.e164,
                recipient_phone_country: input.recipientPhone.country,
              }
            : {}),
        })
        .where('id', '=', id)
        .execute();
    },

    async branding(accountId: number) {
      const row = await db
        .selectFrom('account_branding')
        .selectAll()
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return (
        row && {
          displayName: row.display_name,
          logoUrl: row.logo_url,
          color: row.color,
          footer: row.footer,
          codeInEmail: row.code_in_email,
        }
      );
    },

    async setBranding(
      accountId: number,
      b: {
        displayName: string | null;
        logoUrl: string | null;
        color: string | null;
        footer: string | null;
        codeInEmail: boolean;
      },
      at: Date,
    ): Promise<void> {
      const values = {
        display_name: b.displayName,
        logo_url: b.logoUrl,
        color: b.color,
        footer: b.footer,
        code_in_email: b.codeInEmail,
        updated_at: at,
      };
      await db
        .insertInto('account_branding')
        .values({ account_id: accountId, ...values })
        .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
        .execute();
    },

    link(id: number): Promise<RedeemLinkRow | undefined> {
      return db.selectFrom('redeem_links').selectAll().where('id', '=', id).executeTakeFirst();
    },

    linkByHash(hash: string): Promise<RedeemLinkRow | undefined> {
      return db.selectFrom('redeem_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },

    /**
     * The link a message is about to carry, with its token hash stored the first time (unless the
     * link is revoked): one statement for what `link` then `setTokenHash` did. The row is read as it
     * was before this statement (its `token_hash` null the first time).
     */
    async linkToSend(id: number, hash: string): Promise<RedeemLinkRow | undefined> {
      return links.run(appDb, { id, hash });
    },

    /** Stores the link's token hash the first time it is derived. */
    async setTokenHash(id: number, hash: string): Promise<void> {
      await db
        .updateTable('redeem_links')
        .set({ token_hash: hash })
        .where('id', '=', id)
        .where('token_hash', 'is', null)
        .execute();
    },

    /** A new link for an order (a resend), the order's older links revoked, in `trx`. */
    async replaceLink(trx: Kysely<Database>, transactionId: number, at: Date): Promise<number> {
      await on(trx)
        .updateTable('redeem_links')
        .set({ revoked_at: at })
        .where('transaction_id', '=', transactionId)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await on(trx)
        .insertInto('redeem_links')
        .values({ transaction_id: transactionId, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** The order's newest link that is not revoked. */
    currentLink(transactionId: number): Promise<RedeemLinkRow | undefined> {
      return db
        .selectFrom('redeem_links')
        .selectAll()
        .where('transaction_id', '=', transactionId)
        .where('revoked_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async recordReveal(linkId: number, transactionId: number, ip: string | null, at: Date): Promise<void> {
      await db
        .insertInto('redeem_reveals')
        .values({ link_id: linkId, transaction_id: transactionId, ip, at })
        .execute();
    },

    reveals(transactionId: number) {
      return db
        .selectFrom('redeem_reveals')
        .select(['id', 'ip', 'at'])
        .where('transaction_id', '=', transactionId)
        .orderBy('id')
        .execute();
    },

    /** The link's newest code, if it can still be used (not used, not expired, tries left). */
    activeCode(linkId: number, now: Date, maxTries: number) {
      return db
        .selectFrom('redeem_codes')
        .selectAll()
        .where('link_id', '=', linkId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .where('tries', '<', maxTries)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async createCode(trx: Kysely<Database>, linkId: number, ip: string | null, at: Date, expiresAt: Date) {
      // a new code ends the older ones
      await on(trx)
        .updateTable('redeem_codes')
        .set({ used_at: at })
        .where('link_id', '=', linkId)
        .where('used_at', 'is', null)
        .execute();
      return on(trx)
        .insertInto('redeem_codes')
        .values({ link_id: linkId, ip, created_at: at, expires_at: expiresAt })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    /** Counts a try on a code; false when it was already used up (a concurrent try won). */
    async countTry(id: number, maxTries: number): Promise<boolean> {
      const r = await db
        .updateTable('redeem_codes')
        .set({ tries: sql`tries + 1` })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('tries', '<', maxTries)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async useCode(id: number, at: Date): Promise<boolean> {
      const r = await db
        .updateTable('redeem_codes')
        .set({ used_at: at })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Codes sent for the order's links since `since`, and from `ip` since `since` (the limits). */
    async codesSince(transactionId: number, ip: string | null, since: Date) {
      const row = await db
        .selectFrom('redeem_codes as c')
        .innerJoin('redeem_links as l', 'l.id', 'c.link_id')
        .select([
          sql<number>`count(*) FILTER (WHERE l.transaction_id = ${transactionId})::int`.as('order'),
          sql<number>`count(*) FILTER (WHERE c.ip = ${ip ?? ''})::int`.as('ip'),
        ])
        .where('c.created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return { order: row.order, ip: row.ip };
    },
  };
}

export type DeliveryRepository = ReturnType<typeof deliveryRepository>;

import { type Kysely, sql } from 'kysely';
import type { Database, Environment } from '../../db/schema.ts';
import { entriesOf, type LedgerEntry } from '../ledger/index.ts';
import { type FundingTables, type TransferStatus, withFundingTables } from './funding-tables.ts';

/**
 * The SQL of funding by bank transfer (migration 0024): bank details, announced transfers and their
 * guarded transitions, and the ledger reads of receipts and monthly statements. Writes take the
 * caller's transaction where the change must commit with others (the ledger entry, the e-mails).
 */
export interface TransferRow {
  id: number;
  account_id: number;
  account_name: string;
  currency_code: string;
  amount: string;
  transfer_date: string;
  reference: string;
  payer_reference: string | null;
  status: TransferStatus;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reject_reason: string | null;
  ledger_entry_id: number | null;
}

type Db = Kysely<Database>;

export function fundingRepository(
  appDb: Db,
  recipientRoles: { customer: string[]; operator: string[] } = { customer: [], operator: [] },
) {
  const db = withFundingTables(appDb);
  const on = (trx?: Db) => (trx ? withFundingTables(trx) : db);

  /** Transfers joined with their account's name; the caller adds the filters. */
  const transfers = (trx?: Db) =>
    on(trx)
      .selectFrom('funding_transfers as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .select([
        't.id',
        't.account_id',
        'a.name as account_name',
        't.currency_code',
        sql<string>`t.amount::text`.as('amount'),
        sql<string>`t.transfer_date::text`.as('transfer_date'),
        't.reference',
        't.payer_reference',
        't.status',
        't.created_at',
        't.decided_by',
        't.decided_at',
        't.reject_reason',
        't.ledger_entry_id',
      ]);

  return {
    bankDetails: {
      list: () => db.selectFrom('bank_details').selectAll().orderBy('currency_code').execute(),
      get: (currency: string) =>
        db.selectFrom('bank_details').selectAll().where('currency_code', '=', currency).executeTakeFirst(),
      upsert: (row: FundingTables['bank_details']) =>
        db
          .insertInto('bank_details')
          .values(row)
          .onConflict((oc) =>
            oc.column('currency_code').doUpdateSet({
              account_holder: row.account_holder,
              account_number: row.account_number,
              bic: row.bic,
              bank_name: row.bank_name,
              instructions: row.instructions,
              updated_at: row.updated_at,
            }),
          )
          .returningAll()
          .executeTakeFirstOrThrow(),
      remove: async (currency: string) =>
        Number(
          (await db.deleteFrom('bank_details').where('currency_code', '=', currency).executeTakeFirst())
            .numDeletedRows,
        ) === 1,
    },

    async insertTransfer(
      trx: Db,
      t: {
        accountId: number;
        currencyCode: string;
        amount: string;
        transferDate: string;
        reference: string;
        payerReference: string | null;
        announcedBy: number | null;
        at: Date;
      },
    ): Promise<number> {
      const row = await on(trx)
        .insertInto('funding_transfers')
        .values({
          account_id: t.accountId,
          currency_code: t.currencyCode,
          amount: t.amount,
          transfer_date: t.transferDate,
          reference: t.reference,
          payer_reference: t.payerReference,
          announced_by: t.announcedBy,
          created_at: t.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    find: (id: number, trx?: Db): Promise<TransferRow | undefined> =>
      transfers(trx).where('t.id', '=', id).executeTakeFirst(),

    /** A page of transfers, newest first (announced ones oldest first: the queue's order). */
    list(filter: { accountId?: number; status?: TransferStatus }, page: { limit: number; offset: number }) {
      let q = transfers();
      if (filter.accountId !== undefined) q = q.where('t.account_id', '=', filter.accountId);
      if (filter.status !== undefined) q = q.where('t.status', '=', filter.status);
      return q
        .orderBy('t.id', filter.status === 'announced' ? 'asc' : 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    /**
     * The one transition out of `announced`: true only for the caller whose UPDATE moved the row
     * (a second confirmation, or a rejection racing it, waits on the row lock and then finds the
     * status changed, so it moves nothing).
     */
    async decide(
      trx: Db,
      id: number,
      to: { status: 'confirmed' | 'rejected'; by: string; at: Date; rejectReason?: string },
    ): Promise<boolean> {
      const updated = await on(trx)
        .updateTable('funding_transfers')
        .set({
          status: to.status,
          decided_by: to.by,
          decided_at: to.at,
          reject_reason: to.rejectReason ?? null,
        })
        .where('id', '=', id)
        .where('status', '=', 'announced')
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    async setLedgerEntry(trx: Db, id: number, entryId: number): Promise<void> {
      await on(trx)
        .updateTable('funding_transfers')
        .set({ ledger_entry_id: entryId })
        .where('id', '=', id)
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
    },

    /**
     * Who hears of a transfer: the account's users, or the console's operators, who set a password,
     * were not removed, and whose role may move money (`recipientRoles`).
     */
    async recipients(trx: Db, side: { accountId: number } | 'operators'): Promise<string[]> {
      const roles = side === 'operators' ? recipientRoles.operator : recipientRoles.customer;
      if (roles.length === 0) return [];
      const { rows } = await sql<{ email: string }>`
        SELECT email FROM web_users
        WHERE password_hash IS NOT NULL AND removed_at IS NULL
          AND role IN (${sql.join(roles)})
          AND ${side === 'operators' ? sql`kind = 'operator'` : sql`kind = 'customer' AND account_id = ${side.accountId}`}
        ORDER BY id`.execute(trx);
      return rows.map((u) => u.email);
    },

    /** One ledger entry of an account, with the transfer it confirmed (if any). */
    async entryOf(accountId: number, entryId: number) {
      return db
        .selectFrom('ledger_entries as e')
        .innerJoin('accounts as a', 'a.id', 'e.account_id')
        .leftJoin('funding_transfers as t', 't.ledger_entry_id', 'e.id')
        .select([
          'e.id',
          'e.account_id',
          'a.name as account_name',
          'e.environment',
          'e.kind',
          sql<string>`e.amount::text`.as('amount'),
          sql<string>`e.balance_after::text`.as('balance_after'),
          'e.currency_code',
          'e.reason',
          'e.created_at',
          't.id as transfer_id',
          sql<string | null>`t.transfer_date::text`.as('transfer_date'),
          't.payer_reference',
        ])
        .where('e.id', '=', entryId)
        .where('e.account_id', '=', accountId)
        .executeTakeFirst();
    },

    /**
     * A statement's figures over [from, to): the sum of every entry before `from` (the opening
     * balance), the money in and out within, their count, and the first and last entry's ids. From
     * the sums, not from one entry's balance_after, so opening + in + out = closing even where the
     * entries' times (each server's clock) are not in the order they were posted.
     */
    async statementSums(accountId: number, environment: Environment, from: Date, to: Date) {
      const { rows } = await sql<{
        opening: string;
        in: string;
        out: string;
        count: number;
        firstId: number | null;
        lastId: number | null;
      }>`
        SELECT COALESCE(SUM(amount) FILTER (WHERE created_at < ${from}), 0)::text AS opening,
               COALESCE(SUM(amount) FILTER (WHERE created_at >= ${from} AND amount > 0), 0)::text AS in,
               COALESCE(SUM(amount) FILTER (WHERE created_at >= ${from} AND amount < 0), 0)::text AS out,
               COUNT(*) FILTER (WHERE created_at >= ${from})::int AS count,
               MIN(id) FILTER (WHERE created_at >= ${from}) AS "firstId",
               MAX(id) FILTER (WHERE created_at >= ${from}) AS "lastId"
        FROM ledger_entries
        WHERE account_id = ${accountId} AND environment = ${environment} AND created_at < ${to}`.execute(
        appDb,
      );
      return rows[0];
    },

    /**
     * The entries of [from, to) in the order they were posted (by id, the order of their
     * balance_after), after entry `afterId` and up to `lastId` (the month's last), at most `limit`:
     * keyset paging on the ledger's (account, environment, id) index.
     */
    statementEntries(
      accountId: number,
      environment: Environment,
      range: { from: Date; to: Date },
      ids: { afterId: number; lastId: number },
      limit: number,
    ): Promise<LedgerEntry[]> {
      return entriesOf(appDb, accountId, environment)
        .where('id', '>', ids.afterId)
        .where('id', '<=', ids.lastId)
        .where('created_at', '>=', range.from)
        .where('created_at', '<', range.to)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
  };
}

export type FundingRepository = ReturnType<typeof fundingRepository>;

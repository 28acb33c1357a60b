import type { Kysely } from 'kysely';
import type { AccountShapes, Database } from '../../db/schema.ts';

/** SQL for accounts. Only this file reads or writes the `accounts` table. */
export interface AccountRow {
  id: number;
  name: string;
  currencyCode: string;
  countryCode: string;
  status: 'ACTIVE' | 'INACTIVE';
  dailyCountLimit: number | null;
  dailyAmountLimit: string | null;
  shapes: AccountShapes;
  createdAt: Date;
  updatedAt: Date;
}

const columns = [
  'id',
  'name',
  'currency_code as currencyCode',
  'country_code as countryCode',
  'status',
  'daily_count_limit as dailyCountLimit',
  'daily_amount_limit as dailyAmountLimit',
  'shapes',
  'created_at as createdAt',
  'updated_at as updatedAt',
] as const;

export function accountsRepository(db: Kysely<Database>) {
  return {
    async insert(
      trx: Kysely<Database>,
      row: {
        name: string;
        currencyCode: string;
        countryCode: string;
        dailyCountLimit: number | null;
        dailyAmountLimit: string | null;
      },
    ): Promise<AccountRow> {
      return trx
        .insertInto('accounts')
        .values({
          name: row.name,
          currency_code: row.currencyCode,
          country_code: row.countryCode,
          status: 'ACTIVE',
          daily_count_limit: row.dailyCountLimit,
          daily_amount_limit: row.dailyAmountLimit,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
    },

    async find(id: number): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').select(columns).where('id', '=', id).executeTakeFirst();
    },

    async list(page: { limit: number; offset: number }): Promise<{ rows: AccountRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('accounts')
          .select(columns)
          .orderBy('id')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async update(
      id: number,
      changes: Partial<{
        status: 'ACTIVE' | 'INACTIVE';
        dailyCountLimit: number | null;
        dailyAmountLimit: string | null;
        shapes: AccountShapes;
      }>,
      at: Date,
    ): Promise<AccountRow | undefined> {
      return db
        .updateTable('accounts')
        .set({
          ...(changes.status !== undefined && { status: changes.status }),
          ...(changes.dailyCountLimit !== undefined && { daily_count_limit: changes.dailyCountLimit }),
          ...(changes.dailyAmountLimit !== undefined && { daily_amount_limit: changes.dailyAmountLimit }),
          ...(changes.shapes !== undefined && { shapes: changes.shapes }),
          updated_at: at,
        })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
    },
  };
}

export type AccountsRepository = ReturnType<typeof accountsRepository>;

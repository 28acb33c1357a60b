import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL for the FX table. Only this file reads or writes `fx_rates`. */
export interface FxRateRow {
  currencyCode: string;
  unitsPerUsd: string;
  asOf: Date;
}

export function fxRepository(db: Kysely<Database>) {
  return {
    async all(): Promise<FxRateRow[]> {
      return db
        .selectFrom('fx_rates')
        .select(['currency_code as currencyCode', 'units_per_usd as unitsPerUsd', 'as_of as asOf'])
        .execute();
    },

    /** Sets one currency's rate, adding it or replacing the one there. */
    async upsert(rate: FxRateRow, now: Date): Promise<void> {
      await db
        .insertInto('fx_rates')
        .values({
          currency_code: rate.currencyCode,
          units_per_usd: rate.unitsPerUsd,
          as_of: rate.asOf,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('currency_code')
            .doUpdateSet({ units_per_usd: rate.unitsPerUsd, as_of: rate.asOf, updated_at: now }),
        )
        .execute();
    },

    /** Adds the rates of currencies the table does not have yet; the others are kept. */
    async insertMissing(rates: FxRateRow[], now: Date): Promise<void> {
      await db
        .insertInto('fx_rates')
        .values(
          rates.map((r) => ({
            currency_code: r.currencyCode,
            units_per_usd: r.unitsPerUsd,
            as_of: r.asOf,
            updated_at: now,
          })),
        )
        .onConflict((oc) => oc.column('currency_code').doNothing())
        .execute();
    },
  };
}

export type FxRepository = ReturnType<typeof fxRepository>;

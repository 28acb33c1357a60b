import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** SQL of the operator's status choice per top-up operator (`topup_operator_statuses`, migration 0014). */
export type OperatorStatus = 'ACTIVE' | 'INACTIVE';

export function operatorStatusesRepository(db: Kysely<Database>) {
  return {
    async all(): Promise<Map<number, OperatorStatus>> {
      const rows = await db.selectFrom('topup_operator_statuses').select(['operator_id', 'status']).execute();
      return new Map(rows.map((r) => [r.operator_id, r.status]));
    },
    async set(operatorId: number, status: OperatorStatus, at: Date): Promise<void> {
      await db
        .insertInto('topup_operator_statuses')
        .values({ operator_id: operatorId, status, changed_at: at })
        .onConflict((oc) => oc.column('operator_id').doUpdateSet({ status, changed_at: at }))
        .execute();
    },
  };
}

export type OperatorStatusesRepository = ReturnType<typeof operatorStatusesRepository>;

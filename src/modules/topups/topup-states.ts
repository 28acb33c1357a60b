import type { Kysely } from 'kysely';
import type { Database, TopupStatus } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { dec } from '../../lib/money.ts';
import type { Ledger } from '../ledger/index.ts';
import type { TopupRow, TopupsRepository } from './topups-repository.ts';

/**
 * The top-up state machine, the one place a status changes (decisions §6):
 *
 *     (accepted, debited) -> PROCESSING -> SUCCESSFUL
 *                                      \-> REFUNDED   (a REFUND ledger entry gives the cost back)
 *
 * SUCCESSFUL and REFUNDED are final. Every top-up is written PROCESSING with its debit, then moved in
 * the same transaction (immediate outcome) or later by the worker (deferred outcome). A change is a
 * conditional UPDATE (`WHERE status = 'PROCESSING'`), so a worker and a retry can never both move one.
 */
export const TOPUP_TRANSITIONS: Record<TopupStatus, readonly TopupStatus[]> = {
  PROCESSING: ['SUCCESSFUL', 'REFUNDED'],
  SUCCESSFUL: [],
  REFUNDED: [],
};

export function createTopupStates(deps: { repo: TopupsRepository; ledger: Ledger; clock: Clock }) {
  const { repo, ledger, clock } = deps;

  /** PROCESSING -> SUCCESSFUL, with the operator's reference and, for PIN operators, the PIN. */
  async function succeed(
    trx: Kysely<Database>,
    row: TopupRow,
    result: { operatorTransactionId: string; pinDetail: Record<string, string | null> | null },
  ): Promise<TopupRow | undefined> {
    return repo.changeStatus(trx, row.id, 'PROCESSING', {
      status: 'SUCCESSFUL',
      operator_transaction_id: result.operatorTransactionId,
      pin_detail: result.pinDetail === null ? null : JSON.stringify(result.pinDetail),
      next_check_at: null,
      updated_at: clock.now(),
    });
  }

  /** PROCESSING -> REFUNDED, posting the one refund of the order's debit in the same transaction. */
  async function refund(trx: Kysely<Database>, row: TopupRow, reason: string): Promise<TopupRow | undefined> {
    const moved = await repo.changeStatus(trx, row.id, 'PROCESSING', {
      status: 'REFUNDED',
      failure_reason: reason,
      next_check_at: null,
      updated_at: clock.now(),
    });
    if (!moved) return undefined;
    await ledger.refundOrder(trx, {
      accountId: row.account_id,
      environment: row.environment,
      amount: dec(row.cost),
      product: 'topups',
      transactionId: row.id,
      reason: `top-up ${row.id} refunded: ${reason}`,
    });
    return moved;
  }

  return { succeed, refund };
}

export type TopupStates = ReturnType<typeof createTopupStates>;

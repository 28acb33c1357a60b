import type { Kysely } from 'kysely';
import type { Database, TopupStatus } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/clock.ts';
import { dec } from '../../../lib/money.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { TopupStep } from '../fulfilment/provider.ts';
import type { TopupRow, TopupsRepository } from './orders-repository.ts';

/**
 * The top-up state machine, the one place a status changes (decisions §6):
 *
 *     (accepted, debited) -> PROCESSING -> SUCCESSFUL
 *                                      \-> REFUNDED   (a REFUND ledger entry gives the cost back)
 *
 * SUCCESSFUL and REFUNDED are final. A sandbox top-up is written with its debit in the state its
 * provider's first step reached (`initialState`: SUCCESSFUL or PROCESSING; a refusal is written
 * PROCESSING and moved to REFUNDED in the same transaction); an upstream's is written PROCESSING and its first
 * step applied right after the commit; a deferred one is moved later by the worker. A REFUSED step
 * (an upstream refused the top-up) is a move to REFUNDED like any other; only its answer to the
 * placing request differs (the order path answers its error after the commit).
 * A change is a conditional UPDATE (`WHERE status = 'PROCESSING'`), so a worker and a retry can never
 * both move one top-up.
 */
const TOPUP_TRANSITIONS: Record<TopupStatus, readonly TopupStatus[]> = {
  PROCESSING: ['SUCCESSFUL', 'REFUNDED'],
  SUCCESSFUL: [],
  REFUNDED: [],
};

export const FINAL_STATES: TopupStatus[] = ['SUCCESSFUL', 'REFUNDED'];

export interface StateDeps {
  repository: TopupsRepository;
  ledger: Ledger;
  clock: Clock;
}

/**
 * Applies a provider's step to a top-up; returns the moved row, or undefined when another run moved
 * it first. PROCESSING again only moves its next check. A step the table does not allow (a final
 * top-up told to change) is an Error: a bug, never a client's fault.
 */
export async function applyStep(
  trx: Kysely<Database>,
  deps: StateDeps,
  row: TopupRow,
  step: TopupStep,
): Promise<TopupRow | undefined> {
  const { repository: repo, ledger, clock } = deps;
  if (step.status === 'PROCESSING') {
    return repo.changeStatus(trx, row.id, 'PROCESSING', { next_check_at: step.nextCheckAt });
  }
  const target = step.status === 'REFUSED' ? 'REFUNDED' : step.status;
  if (!TOPUP_TRANSITIONS[row.status].includes(target)) {
    throw new Error(`top-up ${row.id}: no transition ${row.status} -> ${target}`);
  }
  if (step.status === 'SUCCESSFUL') {
    return repo.changeStatus(trx, row.id, 'PROCESSING', {
      status: 'SUCCESSFUL',
      operator_transaction_id: step.operatorTransactionId,
      pin_detail: step.pinDetail,
      next_check_at: null,
      updated_at: clock.now(),
    });
  }
  // REFUNDED (or REFUSED): the one refund of the top-up's debit, in the same transaction
  const reason =
    step.status === 'REFUSED'
      ? `refused by the supplier: ${step.error.code}: ${step.error.message}`
      : step.reason;
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

/**
 * The status fields of a new top-up whose first step is known before its row is written, so the
 * INSERT itself records it: SUCCESSFUL (the operator's reference, the voucher) or PROCESSING (its
 * next check). A REFUNDED (or REFUSED) first step gives null: the top-up is written PROCESSING and
 * `applyStep` moves it, posting the refund in the same transaction.
 */
export function initialState(step: TopupStep, now: Date) {
  if (step.status === 'REFUNDED' || step.status === 'REFUSED') return null;
  if (step.status === 'PROCESSING') return { status: 'PROCESSING' as const, next_check_at: step.nextCheckAt };
  return {
    status: 'SUCCESSFUL' as const,
    operator_transaction_id: step.operatorTransactionId,
    pin_detail: step.pinDetail,
    next_check_at: null,
    updated_at: now,
  };
}

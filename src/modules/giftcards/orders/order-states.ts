import type { Kysely } from 'kysely';
import type { Database, GiftcardStatus } from '../../../db/schema.ts';
import type { AppError } from '../../../errors/error-codes.ts';
import type { CardCodec } from '../../../lib/card-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { dec } from '../../../lib/money.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { FulfilmentStep } from '../fulfilment/provider.ts';
import type { OrdersRepository, TransactionRow } from './orders-repository.ts';

/**
 * The gift card order state machine (decisions §6), the one place a transaction's status changes:
 *
 *   PENDING ──> PROCESSING ──> SUCCESSFUL
 *                    │ ├─────> REFUNDED
 *                    └──> FAILED ──> REFUNDED
 *
 * SUCCESSFUL and REFUNDED are final. Reaching SUCCESSFUL stores the encrypted cards; reaching
 * REFUNDED posts the order's refund entry (the ledger's unique index makes it once only). A REFUSED
 * step (an upstream refused the order) is a move to REFUNDED like any other; only its answer to the
 * placing request differs (the order path answers its error after the commit). Every change runs
 * in the caller's database transaction on a locked row.
 */
const NEXT: Record<GiftcardStatus, GiftcardStatus[]> = {
  PENDING: ['PROCESSING'],
  PROCESSING: ['SUCCESSFUL', 'FAILED', 'REFUNDED'],
  FAILED: ['REFUNDED'],
  SUCCESSFUL: [],
  REFUNDED: [],
};

export const FINAL_STATES: GiftcardStatus[] = ['SUCCESSFUL', 'REFUNDED'];

export function canMove(from: GiftcardStatus, to: GiftcardStatus): boolean {
  return NEXT[from].includes(to);
}

/**
 * The states passed through from `from` to `to` (excluding `from`), the shortest way (a direct
 * PROCESSING -> REFUNDED never goes through FAILED); null when `to` is not reachable.
 */
export function pathTo(from: GiftcardStatus, to: GiftcardStatus): readonly GiftcardStatus[] | null {
  // Every order's first step asks: the graph is constant, so each answer is searched once.
  const key = `${from}>${to}`;
  let path = PATHS.get(key);
  if (path === undefined) {
    path = searchPath(from, to);
    if (path) Object.freeze(path);
    PATHS.set(key, path);
  }
  return path;
}

const PATHS = new Map<string, readonly GiftcardStatus[] | null>();

function searchPath(from: GiftcardStatus, to: GiftcardStatus): GiftcardStatus[] | null {
  let paths: GiftcardStatus[][] = [[]];
  while (paths.length > 0) {
    const done = paths.find((p) => (p.at(-1) ?? from) === to);
    if (done) return done;
    paths = paths.flatMap((p) => NEXT[p.at(-1) ?? from].map((next) => [...p, next]));
  }
  return null;
}

export interface StateDeps {
  repository: OrdersRepository;
  ledger: Ledger;
  codec: CardCodec;
  clock: Clock;
}

/** The state a step moves the order to: a refusal ends REFUNDED. */
export function stateOf(step: FulfilmentStep): GiftcardStatus {
  return step.status === 'REFUSED' ? 'REFUNDED' : step.status;
}

/**
 * Applies a provider's step to a locked transaction row. A step that would go backwards (the
 * provider says PROCESSING of a FAILED order) is refused: an Error, a bug, never a client's fault.
 */
export async function applyStep(
  trx: Kysely<Database>,
  deps: StateDeps,
  row: TransactionRow,
  step: FulfilmentStep,
): Promise<GiftcardStatus> {
  const target = stateOf(step);
  const path = pathTo(row.status, target);
  if (!path) throw new Error(`gift card transaction ${row.id}: no transition ${row.status} -> ${target}`);
  const now = deps.clock.now();
  if (step.status === 'SUCCESSFUL') {
    const cards = await Promise.all(
      step.cards.map(async (c, i) => ({
        transaction_id: row.id,
        position: i + 1,
        card_number: await deps.codec.seal(c.cardNumber),
        pin_code: await deps.codec.seal(c.pinCode),
      })),
    );
    await deps.repository.insertCards(trx, cards);
  }
  if (target === 'REFUNDED') {
    await refund(
      trx,
      deps,
      row,
      step.status === 'REFUSED' ? 'gift card order refused by the supplier' : null,
    );
  }
  const nextCheckAt = 'nextCheckAt' in step ? step.nextCheckAt : null;
  await deps.repository.changeStatus(trx, row.id, row.status, {
    status: target,
    updated_at: now,
    next_check_at: nextCheckAt,
  });
  return target;
}

/**
 * The order's one refund (the ledger's unique index makes it once only), and the balance it left
 * on the row: `balanceInfo` shows it once the order is REFUNDED.
 */
async function refund(trx: Kysely<Database>, deps: StateDeps, row: TransactionRow, reason: string | null) {
  const posted = await deps.ledger.refundOrder(trx, {
    accountId: row.account_id,
    environment: row.environment,
    amount: dec(row.amount),
    product: 'giftcards',
    transactionId: row.id,
    reason: reason ?? 'gift card order refunded',
  });
  const newBalance = posted.newBalance.toFixed();
  await deps.repository.setBalanceAfterRefund(trx, row.id, newBalance, posted.at);
  return { newBalance, at: posted.at };
}

/**
 * A new order its first step refunded at once (written REFUNDED, in its own transaction): its
 * refund, and the row as the placing request answers it.
 */
export async function refundNewOrder(
  trx: Kysely<Database>,
  deps: StateDeps,
  row: TransactionRow,
): Promise<TransactionRow> {
  const { newBalance, at } = await refund(trx, deps, row, null);
  return { ...row, new_balance: newBalance, balance_updated_at: at };
}

/** What the first step made of a new order, decided before its row is written (see `firstStep`). */
export interface FirstStep {
  status: GiftcardStatus;
  nextCheckAt: Date | null;
  /** Sealed codes, in order (SUCCESSFUL only). */
  cards: Array<{ card_number: string; pin_code: string }>;
  /** REFUNDED at once: the refund entry is posted with the order. */
  refund: boolean;
  /** REFUSED: what the placing request answers once the order is written (refunded). */
  refusal: AppError | null;
}

/**
 * The provider's first step of an order that is being written now (PENDING, not yet visible to
 * anyone else), so the order's own transaction writes its row in the state the step reached, with
 * its cards or its refund: no second transaction, no lock, no re-read. The states passed through
 * are the same as `applyStep`'s from PENDING; a step that cannot follow PENDING is an Error.
 */
export async function firstStep(
  deps: Pick<StateDeps, 'codec'>,
  transactionId: number,
  step: FulfilmentStep,
): Promise<FirstStep> {
  const target = stateOf(step);
  if (!pathTo('PENDING', target))
    throw new Error(`gift card transaction ${transactionId}: no transition PENDING -> ${target}`);
  const cards =
    step.status === 'SUCCESSFUL'
      ? await Promise.all(
          step.cards.map(async (c) => ({
            card_number: await deps.codec.seal(c.cardNumber),
            pin_code: await deps.codec.seal(c.pinCode),
          })),
        )
      : [];
  return {
    status: target,
    nextCheckAt: 'nextCheckAt' in step ? step.nextCheckAt : null,
    cards,
    refund: target === 'REFUNDED',
    refusal: step.status === 'REFUSED' ? step.error : null,
  };
}

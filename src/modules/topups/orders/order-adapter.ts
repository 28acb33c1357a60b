import type { Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import { dec } from '../../../lib/money.ts';
import { createGathering } from '../../group-commit/index.ts';
import type { RowWriter } from '../../ledger/index.ts';
import {
  createOrderPath,
  type FirstStep,
  type NewOrder,
  type OrderAdapter,
  type OrderPathDeps,
  type ProductDeps,
} from '../../orders/index.ts';
import type { OperatorSource } from '../catalog/live-operators.ts';
import type { OperatorViews } from '../catalog/operator-view.ts';
import type { TopupOrder, TopupProvider, TopupStep } from '../fulfilment/provider.ts';
import { createTopupPricer, type TopupPrice } from './order-pricing.ts';
import { type CheckedTopup, createTopupChecks } from './order-request.ts';
import type { TopupBody } from './order-schemas.ts';
import { applyStep, FINAL_STATES, initialState } from './order-states.ts';
import { type TopupView, topupView } from './order-view.ts';
import {
  type ConflictCheck,
  type NewTopupRows,
  storedTopupRow,
  type TopupRow,
  type TopupsRepository,
  type UnpostedTopup,
} from './orders-repository.ts';

/**
 * Top-ups on the one order path (modules/orders/): what they differ in. The checks run in the order
 * a caller can fix them (`order-request.ts`): amount format, account, operator, recipient and
 * sender, then the amount rules and the money (`order-pricing.ts`). A provider that
 * answers from memory (the sandbox) is asked in the transaction, after the fast customIdentifier and
 * PHONE_RECENTLY_RECHARGED check (its test number 99993: 503). The row is written by the debit's own
 * statement (the row writer, as gift cards'), with the recent recharge checked again on the row of
 * its ledger entry, after the balance lock, by a function that sees what committed meanwhile (so two
 * concurrent sends to one number, from two servers, cannot both pass: no index enforces the rule);
 * so is a top-up alone on PostgreSQL; one run again after that statement refused it, one refunded at
 * once and one on PGlite write their row after the debit with both checks answered. A top-up
 * the operator refused is answered 400 TOPUP_TRANSACTION_FAILED once refunded; an upstream's
 * refusal for other reasons answers its own code.
 *
 * @example
 * const orders = createTopupOrders({ db, clock, ledger, accounts, fx, countries, source, views,
 *   repository, providers, settings: { recentRechargeSeconds: 120, callOutClaimMs } });
 * await orders.place(principal, { operatorId: 1001, amount: 10, recipientPhone }, baseUrl);
 */
export interface TopupOrderDeps
  extends Pick<ProductDeps, 'db' | 'clock' | 'ledger' | 'accounts' | 'fx' | 'countries'> {
  /** The environment's operator catalogue (live: the synced one when there is one). */
  source: OperatorSource;
  views: OperatorViews;
  repository: TopupsRepository;
  providers: Record<Environment, TopupProvider>;
  settings: OrderPathDeps<TopupOrderTypes>['settings'] & {
    /** A number topped up by the account this recently is refused (PHONE_RECENTLY_RECHARGED). */
    recentRechargeSeconds: number;
  };
}

/** A top-up's first step from memory: the step itself, written with the row (`initialState`). */
interface FirstTopupStep extends FirstStep {
  step: TopupStep;
  /** Its PIN voucher as the column holds it (sealed), made before the debit's statement. */
  pinColumn: string | null;
}

interface TopupOrderTypes {
  body: TopupBody;
  checked: CheckedTopup;
  price: TopupPrice;
  order: TopupOrder;
  step: TopupStep;
  first: FirstTopupStep;
  rows: NewTopupRows;
  row: TopupRow;
  view: TopupView;
}

/** The digits the provider reads from a stored top-up (the national number or e-mail local part). */
function subscriberOf(row: TopupRow): string {
  return (row.recipient_phone ?? row.recipient_email?.split('@')[0] ?? '').replace(/\D/g, '');
}

/** The reference is checked before the recipient: a retried request must be told its reference is used. */
function refusalOf(c: { customIdentifierUsed: boolean; recentlyRecharged: boolean }): AppError | null {
  if (c.customIdentifierUsed) return new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
  if (c.recentlyRecharged) return new AppError('PHONE_RECENTLY_RECHARGED');
  return null;
}

/** The new top-up's row, in the state its first step reached; its balances come from its debit. */
function newRow(n: NewOrder<TopupOrderTypes>): UnpostedTopup {
  const { checked: c, price, first, now } = n;
  const row: UnpostedTopup = {
    id: n.id,
    account_id: c.checks.accountId,
    environment: c.checks.environment,
    status: 'PROCESSING',
    operator_id: c.operator.operatorId,
    operator_name: c.operator.name,
    country_code: c.operator.countryCode,
    recipient_phone: c.recipient.phone,
    recipient_email: c.recipient.email,
    sender_phone: c.senderPhone,
    custom_identifier: c.checks.customIdentifier,
    requested_amount: price.requestedAmount.toFixed(),
    requested_currency_code: price.requestedCurrencyCode,
    delivered_amount: price.deliveredAmount.toFixed(),
    delivered_currency_code: price.deliveredCurrencyCode,
    discount: price.discount.toFixed(),
    cost: price.cost.toFixed(),
    created_at: now,
    updated_at: now,
    // without a first step yet, the worker takes it on from here if that step never runs
    next_check_at: first ? now : n.rescueAt,
  };
  // written in the state its first step reached (a refusal: PROCESSING, then moved by `refund`);
  // set on the row, not spread into its literal (V8's slow path for a literal of this size)
  if (first) Object.assign(row, initialState(first.step, now));
  return row;
}

export function topupOrderAdapter(deps: TopupOrderDeps): OrderAdapter<TopupOrderTypes> {
  const { clock, ledger, repository } = deps;
  const states = { repository, ledger, clock };
  const checks = createTopupChecks({
    accounts: deps.accounts,
    source: deps.source,
    countries: deps.countries,
  });
  const pricer = createTopupPricer({ views: deps.views, fx: deps.fx });
  const recentMs = deps.settings.recentRechargeSeconds * 1000;
  const since = () => new Date(clock.now().getTime() - recentMs);
  // a batch's checks before the lock and its rows are each one statement (group-commit/gathering.ts)
  const conflicts = createGathering({
    gathers: ledger.inBatch,
    one: (trx, c: ConflictCheck) => repository.conflicts(trx, c),
    many: repository.conflictsMany,
    canShare: (a, b) => Boolean(a.nextId) === Boolean(b.nextId),
  });
  // A batch's rows are written by its debits' statement, and so is a top-up alone's on PostgreSQL (its
  // COMMIT behind it). `one`, the row after the debit with both checks answered (a refusal rolls its
  // transaction back), is for a top-up alone that must get its exact refusal: run again after its
  // statement refused, refunded at once, or on PGlite (the ledger's `registerRowWriter`).
  const rowWriter: RowWriter<NewTopupRows> = {
    async one(trx, rows, debit) {
      const [written] = await repository.insertChecked(trx, [{ row: rows.row, since: rows.since }], debit);
      if (written.row === null)
        throw refusalOf(written) ?? new Error(`top-up ${rows.row.id} was not written`);
    },
    many: repository.rowsWithDebits,
  };

  return {
    product: 'topups',
    finalStates: FINAL_STATES,
    acceptsAfterReservation: true,
    referenceIndex: 'topup_custom_identifier_unique',
    rowWriter,
    repository,
    check: checks.check,
    price: pricer.price,

    async reserve(trx, c) {
      // A fast answer before the balance checks, with the id (a sequence needs no lock) in the same
      // statement; the checks that guarantee it are the ones after the lock and the unique index.
      const fast = await conflicts.run(trx, { ...c.checks, since: since(), nextId: true });
      const refusal = refusalOf(fast);
      if (refusal) throw refusal;
      if (fast.id === null) throw new Error('no top-up id was taken');
      return fast.id;
    },

    toFulfil: (n) => ({
      transactionId: n.id,
      operatorId: n.checked.operator.operatorId,
      subscriber: n.checked.recipient.subscriber,
      pin: n.checked.operator.pin,
      deliveredValue: `${n.price.deliveredAmount.toFixed()} ${n.price.deliveredCurrencyCode}`,
      createdAt: n.now,
      requestedAmount: n.price.requestedAmount.toFixed(),
      deliveredAmount: n.price.deliveredAmount.toFixed(),
      countryCode: n.checked.operator.countryCode,
      recipientPhone: n.checked.recipient.phone,
      recipientEmail: n.checked.recipient.email,
      senderPhone: n.checked.senderPhone,
      firstStep: true,
    }),

    firstStep: async (_n, step) => ({
      step,
      refund: step.status === 'REFUNDED' || step.status === 'REFUSED',
      refusal: step.status === 'REFUSED' ? step.error : null,
      pinColumn:
        step.status === 'SUCCESSFUL' && step.pinDetail ? await repository.sealPin(step.pinDetail) : null,
    }),

    // the row goes with the debit (`rowWriter`), in the state its first step reached
    debit: (n) => ({
      amount: n.price.cost,
      reason: `top-up ${n.id} to ${n.checked.operator.name}`,
      rows: { row: newRow(n), pinColumn: n.first?.pinColumn ?? null, since: since() },
    }),

    async recheck(trx, c) {
      const refusal = refusalOf(await repository.conflicts(trx, { ...c.checks, since: since() }));
      if (refusal) throw refusal;
    },

    // written by the row writer with the debit: the row as given, with the debit's balances
    stored: storedTopupRow,

    async refund(trx, row, n) {
      const moved = n.first ? await applyStep(trx, states, row, n.first.step) : undefined;
      return moved ?? row;
    },

    answer(row, refusal) {
      // a refusal for the operator's reasons is answered as the sandbox's (our transaction id, not theirs)
      if (refusal && refusal.code !== 'TOPUP_TRANSACTION_FAILED') throw refusal;
      if (row.status === 'REFUNDED') {
        throw new AppError(
          'TOPUP_TRANSACTION_FAILED',
          `The operator refused top-up ${row.id}; the debit was refunded`,
          [{ field: 'transactionId', issue: String(row.id) }],
        );
      }
    },

    view: topupView,

    // live's operators read before the transaction (at most every 30 s): `orderOf`'s `peek` needs them
    beforeStep: () => deps.source.of('live'),

    orderOf: (row, isFirstStep) => ({
      transactionId: row.id,
      operatorId: row.operator_id,
      subscriber: subscriberOf(row),
      pin: deps.source.peek(row.environment).find(row.operator_id)?.pin ?? false,
      deliveredValue: `${dec(row.delivered_amount).toFixed()} ${row.delivered_currency_code}`,
      createdAt: row.created_at,
      requestedAmount: dec(row.requested_amount).toFixed(),
      deliveredAmount: dec(row.delivered_amount).toFixed(),
      countryCode: row.country_code,
      recipientPhone: row.recipient_phone,
      recipientEmail: row.recipient_email,
      senderPhone: row.sender_phone,
      firstStep: isFirstStep,
    }),

    apply: (trx, row, step) => applyStep(trx, states, row, step),
  };
}

/** Top-ups: the one order path with the top-up adapter. */
export function createTopupOrders(deps: TopupOrderDeps) {
  return createOrderPath(deps, topupOrderAdapter(deps));
}

export type TopupOrders = ReturnType<typeof createTopupOrders>;

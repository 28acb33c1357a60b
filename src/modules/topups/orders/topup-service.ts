import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Config } from '../../../config.ts';
import type { Database, Environment } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import { takeStep } from '../../../lib/fulfilment-step.ts';
import { dec } from '../../../lib/money.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { Principal } from '../../auth/index.ts';
import { createGathering, type Ledger } from '../../ledger/index.ts';
import type { Countries, Fx } from '../../reference/index.ts';
import type { OperatorSource } from '../catalog/live-operators.ts';
import type { OperatorViews } from '../catalog/operator-view.ts';
import type { TopupOrder, TopupProvider, TopupStep } from '../fulfilment/provider.ts';
import { checkRecipient, checkSenderPhone } from './recipient.ts';
import { parseAmount, priceTopup } from './topup-pricing.ts';
import type { TopupBody } from './topup-schemas.ts';
import type { TopupStates } from './topup-states.ts';
import {
  type CheckedInsert,
  isCustomIdentifierConflict,
  type NewTopup,
  type TopupRow,
  type TopupsRepository,
} from './topups-repository.ts';

/**
 * POST /topups and the completion of deferred top-ups. The checks run in the order a caller can fix
 * them: amount format, account, operator, recipient and sender, amount rules, recent recharge, then
 * the environment's provider (`accept`: live without an upstream, 422; the sandbox's test number
 * 99993, 503). Then, in ONE database transaction: the debit through the ledger (which locks the
 * balance row and checks the daily limits), for a provider that answers from memory (the sandbox)
 * its first step, and the transaction row in the state that step reached, written only if the
 * authoritative checks hold in that same INSERT (after the lock, so two concurrent sends to one
 * number cannot both pass; its unique index makes customIdentifier single-use atomically). A provider that calls out (live's upstream,
 * it has `reserve`) takes its first step after that commit, in a transaction of its own on the
 * top-up's locked row: no call is ever made while the account's balance row is locked. Such a top-up
 * is written PROCESSING with a check `RESCUE_AFTER_MS` later, so the worker takes it on when that
 * first step never ran (a crash).
 */
export interface TopupServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'topupRecentRechargeSeconds'>;
  accounts: AccountsService;
  ledger: Ledger;
  fx: Fx;
  countries: Countries;
  /** The environment's operator catalogue (live: the synced one when there is one). */
  source: OperatorSource;
  views: OperatorViews;
  repo: TopupsRepository;
  states: TopupStates;
  providers: Record<Environment, TopupProvider>;
  /** How long a step that calls out (an upstream) holds its top-up (lib/fulfilment-step.ts). */
  callOutClaimMs: number;
}

/** The digits the provider reads from a stored top-up (the national number or e-mail local part). */
/** A generous bound on one fulfilment step: past it, the worker takes over a top-up left behind. */
const RESCUE_AFTER_MS = 60_000;

function subscriberOf(row: TopupRow): string {
  return (row.recipient_phone ?? row.recipient_email?.split('@')[0] ?? '').replace(/\D/g, '');
}

export function createTopupService(deps: TopupServiceDeps) {
  const { db, clock, accounts, ledger, source, views, countries, repo, states, fx } = deps;
  const recentMs = () => deps.config.topupRecentRechargeSeconds * 1000;
  // a batch's checks after the lock and its rows are each one statement (ledger/gathering.ts)
  const conflicts = createGathering({
    gathers: ledger.inBatch,
    one: (trx, c: Parameters<typeof repo.conflictsMany>[1][number]) => repo.conflicts(trx, c),
    many: repo.conflictsMany,
    canShare: (a, b) => Boolean(a.nextId) === Boolean(b.nextId),
  });
  // The row, with the checks that must hold under the balance row lock in its statement (a batch's
  // customIdentifiers are left to the unique index, as in `conflictsMany`).
  const inserts = createGathering({
    gathers: ledger.inBatch,
    one: async (trx, item: CheckedInsert) => (await repo.insertChecked(trx, [item]))[0],
    many: (trx, items: CheckedInsert[]) =>
      repo.insertChecked(
        trx,
        items.map((i) => ({ ...i, checkCustomIdentifier: false })),
      ),
  });

  /** What a provider is told about a stored top-up. */
  function orderOf(row: TopupRow, firstStep = false): TopupOrder {
    return {
      transactionId: row.id,
      operatorId: row.operator_id,
      subscriber: subscriberOf(row),
      pin: source.peek(row.environment).find(row.operator_id)?.pin ?? false,
      deliveredValue: `${dec(row.delivered_amount).toFixed()} ${row.delivered_currency_code}`,
      createdAt: row.created_at,
      requestedAmount: dec(row.requested_amount).toFixed(),
      deliveredAmount: dec(row.delivered_amount).toFixed(),
      countryCode: row.country_code,
      recipientPhone: row.recipient_phone,
      recipientEmail: row.recipient_email,
      senderPhone: row.sender_phone,
      firstStep,
    };
  }

  /**
   * One step of a PROCESSING top-up on its locked row (`onlyIfDue`: the worker's); a REFUSED step's
   * error is returned (the top-up is refunded by then) for the placing request to answer.
   */
  async function step(
    id: number,
    opts: { onlyIfDue: boolean; firstStep: boolean },
  ): Promise<{ row: TopupRow; refusal: AppError | null }> {
    // live's operators read before the transaction (at most every 30 s): the step's `peek` needs them
    await source.of('live');
    const taken = await takeStep<TopupRow, TopupOrder, TopupStep, Kysely<Database>>({
      transaction: (work) => db.transaction().execute(work),
      outside: db,
      lock: (trx) => repo.lock(trx, id),
      isOpen: (row, now) =>
        row.status === 'PROCESSING' &&
        !(opts.onlyIfDue && (row.next_check_at === null || row.next_check_at > now)),
      orderOf: (row) => orderOf(row, opts.firstStep),
      providerOf: (row) => deps.providers[row.environment],
      apply: (trx, row, next) => states.apply(trx, row, next),
      claim: (trx, row, until) => repo.claim(trx, row.id, until),
      isClaimed: (row, until) =>
        row.status === 'PROCESSING' && row.next_check_at?.getTime() === until.getTime(),
      claimMs: deps.callOutClaimMs,
      now: () => clock.now(),
    });
    return {
      row: (await repo.get(id)) as TopupRow,
      refusal: taken?.status === 'REFUSED' ? taken.error : null,
    };
  }

  async function send(principal: Principal, input: Static<typeof TopupBody>): Promise<TopupRow> {
    const amount = parseAmount(input.amount);
    const account = await accounts.require(principal.accountId);
    if (account.status !== 'ACTIVE') throw new AppError('INACTIVE_ACCOUNT');
    const operator = (await source.of(principal.environment)).find(input.operatorId);
    if (!operator) {
      throw new AppError('RESOURCE_NOT_FOUND', `No operator ${input.operatorId}`, [
        { field: 'operatorId', issue: 'unknown operator' },
      ]);
    }
    if (!operator.status) throw new AppError('OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE');
    const recipient = checkRecipient(operator, input, countries);
    const senderPhone = checkSenderPhone(input.senderPhone, countries);
    const price = await priceTopup({
      operator,
      sender: await views.senderAmounts(operator, account.currencyCode),
      amount,
      useLocalAmount: input.useLocalAmount ?? false,
      accountCountry: account.countryCode,
      fx,
    });
    const recipientKey = recipient.phone ?? (recipient.email as string);
    const scope = { accountId: principal.accountId, environment: principal.environment };
    const since = () => new Date(clock.now().getTime() - recentMs());
    const checks = {
      ...scope,
      customIdentifier: input.customIdentifier ?? null,
      recipient: recipient.phone,
    };
    // The reference is checked before the recipient: a retried request (same customIdentifier) must be
    // told its reference is used, which is how a client finds the transaction that did land.
    const refuse = (c: { customIdentifierUsed: boolean; recentlyRecharged: boolean }) => {
      if (c.customIdentifierUsed) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
      if (c.recentlyRecharged) throw new AppError('PHONE_RECENTLY_RECHARGED');
    };
    const provider = deps.providers[principal.environment];
    // A provider that reads the database or calls out (live's upstream: is one configured?) is asked
    // before the transaction, as gift card orders ask theirs: never inside the account's batch (one
    // PGlite connection would wait on itself). The sandbox's is asked in it, after the fast checks.
    const acceptRequest = { operatorId: operator.operatorId, subscriber: recipient.subscriber };
    if (provider.reserve) await provider.accept(acceptRequest);

    // The transaction, shared with the other top-ups of this account waiting meanwhile (ledger/batcher.ts),
    // each of its statements one for the whole batch (ledger/gathering.ts).
    let row = await ledger.orderTransaction({ ...scope, tag: recipientKey }, async (trx) => {
      // A fast answer before the balance checks, with the id (a sequence needs no lock) in the same
      // statement; the checks that guarantee it are the ones after the lock and the unique index, below.
      const fast = await conflicts.run(trx, { ...checks, since: since(), nextId: true });
      refuse(fast);
      const id = fast.id as number;
      // the sandbox refuses here what it cannot take (its 99993: 503), before any write
      if (!provider.reserve) {
        const accepted = provider.accept(acceptRequest);
        if (accepted instanceof Promise) await accepted;
      }
      const now = clock.now();
      const debit = await ledger
        .debitOrder(trx, {
          ...scope,
          amount: price.cost,
          product: 'topups',
          transactionId: id,
          reason: `top-up ${id} to ${operator.name}`,
          limits: {
            count: account.dailyCountLimit,
            amount: account.dailyAmountLimit === null ? null : dec(account.dailyAmountLimit),
          },
        })
        .catch(async (error) => {
          // Refused (the balance, a daily limit) after waiting for the account's row: a twin (same
          // customIdentifier, or the same number) may have committed meanwhile, and its debit is why
          // the money is gone. The retry is told what a moment later it would have been told first.
          if (error instanceof AppError) refuse(await repo.conflicts(trx, { ...checks, since: since() }));
          throw error;
        });
      const order: TopupOrder = {
        transactionId: id,
        operatorId: operator.operatorId,
        subscriber: recipient.subscriber,
        pin: operator.pin,
        deliveredValue: `${price.deliveredAmount.toFixed()} ${price.deliveredCurrencyCode}`,
        createdAt: now,
        requestedAmount: price.requestedAmount.toFixed(),
        deliveredAmount: price.deliveredAmount.toFixed(),
        countryCode: operator.countryCode,
        recipientPhone: recipient.phone,
        recipientEmail: recipient.email,
        senderPhone,
        firstStep: true,
      };
      // A provider that answers from memory (the sandbox) steps before the write, so the row is written
      // in the state it reached; one that calls out (it has `reserve`) steps after the commit.
      const answered = provider.reserve ? null : provider.step(order, now, trx);
      const first = answered instanceof Promise ? await answered : answered;
      let written: Awaited<ReturnType<typeof inserts.run>>;
      try {
        // Written only if the checks hold again after the lock (in the INSERT statement itself), so
        // two concurrent sends to one number cannot both pass.
        const row: NewTopup = {
          id,
          account_id: principal.accountId,
          environment: principal.environment,
          status: 'PROCESSING',
          operator_id: operator.operatorId,
          operator_name: operator.name,
          country_code: operator.countryCode,
          recipient_phone: recipient.phone,
          recipient_email: recipient.email,
          sender_phone: senderPhone,
          custom_identifier: input.customIdentifier ?? null,
          requested_amount: price.requestedAmount.toFixed(),
          requested_currency_code: price.requestedCurrencyCode,
          delivered_amount: price.deliveredAmount.toFixed(),
          delivered_currency_code: price.deliveredCurrencyCode,
          discount: price.discount.toFixed(),
          cost: price.cost.toFixed(),
          old_balance: debit.oldBalance.toFixed(),
          new_balance: debit.newBalance.toFixed(),
          balance_updated_at: debit.at,
          created_at: now,
          updated_at: now,
          // without a first step yet, the worker takes it on from here if that step never runs
          next_check_at: first ? now : new Date(now.getTime() + RESCUE_AFTER_MS),
        };
        // written in the state its first step reached (a refusal: PROCESSING, then moved below); set
        // on the row, not spread into its literal (V8's slow path for a literal of this size)
        if (first) Object.assign(row, states.initial(first, now));
        written = await inserts.run(trx, { row, since: since(), checkCustomIdentifier: true });
      } catch (error) {
        if (isCustomIdentifierConflict(error)) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
        throw error;
      }
      refuse(written);
      const inserted = written.row as TopupRow;
      await provider.reserve?.(trx, order);
      if (!first || (first.status !== 'REFUNDED' && first.status !== 'REFUSED')) return inserted;
      return (await states.apply(trx, inserted, first)) ?? inserted;
    });
    let refusal: AppError | null = null;
    if (provider.reserve) {
      // Accepted and paid: whatever the first step does, the caller gets the top-up (PROCESSING when
      // that step failed: the worker retries it), or the refusal it was refunded for.
      const taken = await step(row.id, { onlyIfDue: false, firstStep: true }).catch(async () => ({
        row: ((await repo.get(row.id)) as TopupRow | undefined) ?? row,
        refusal: null,
      }));
      row = taken.row;
      refusal = taken.refusal;
    }
    // a refusal for the operator's reasons is answered as the sandbox's (our transaction id, not theirs)
    if (refusal && refusal.code !== 'TOPUP_TRANSACTION_FAILED') throw refusal;
    if (row.status === 'REFUNDED') {
      throw new AppError(
        'TOPUP_TRANSACTION_FAILED',
        `The operator refused top-up ${row.id}; the debit was refunded`,
        [{ field: 'transactionId', issue: String(row.id) }],
      );
    }
    return row;
  }

  return {
    send,

    /** PROCESSING top-ups whose check is due at `now`, oldest first (the worker's job list). */
    due: (now: Date, limit: number) => repo.due(now, limit),

    /**
     * Asks the provider about a deferred top-up again (on its locked row, when still due) and applies
     * its answer.
     */
    async complete(row: Pick<TopupRow, 'id'>): Promise<void> {
      await step(row.id, { onlyIfDue: true, firstStep: false });
    },
  };
}

export type TopupService = ReturnType<typeof createTopupService>;

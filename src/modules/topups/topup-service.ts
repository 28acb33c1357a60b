import { AppError } from '../../http/error-codes.ts';
import type { Principal } from '../../http/request-context.ts';
import { dec } from '../../lib/money.ts';
import { checkRecipient, checkSenderPhone, type PhoneInput } from './recipient.ts';
import { sandboxOperatorTransactionId, sandboxOutcome, sandboxPinDetail } from './sandbox-simulator.ts';
import type { TopupDeps } from './topup-deps.ts';
import { parseAmount, priceTopup } from './topup-pricing.ts';
import type { TopupStates } from './topup-states.ts';
import { isCustomIdentifierConflict, type TopupRow, type TopupsRepository } from './topups-repository.ts';

/**
 * POST /topups. The checks run in the order a caller can fix them: amount format, account, operator,
 * recipient and sender, amount rules, recent recharge, fulfilment availability. Then, in ONE database
 * transaction: the debit through the ledger (which locks the balance row and checks the daily
 * limits), the authoritative recent-recharge check (after the lock, so two concurrent sends to one
 * number cannot both pass), the transaction row (its unique index makes customIdentifier single-use
 * atomically), and the simulator's immediate outcome through the state machine.
 */
export interface SendTopupInput {
  operatorId: number;
  amount: unknown;
  useLocalAmount?: boolean;
  customIdentifier?: string;
  recipientPhone?: PhoneInput;
  recipientEmail?: string;
  senderPhone?: PhoneInput;
}

export function createTopupService(deps: TopupDeps & { repo: TopupsRepository; states: TopupStates }) {
  const { db, clock, accounts, ledger, catalog, views, countries, repo, states, fx } = deps;
  const recentMs = () => deps.config.topupRecentRechargeSeconds * 1000;

  async function send(principal: Principal, input: SendTopupInput): Promise<TopupRow> {
    const amount = parseAmount(input.amount);
    const account = await accounts.require(principal.accountId);
    if (account.status !== 'ACTIVE') throw new AppError('INACTIVE_ACCOUNT');
    const operator = catalog.find(input.operatorId);
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
    const recentlyRecharged = (trx: typeof db, exceptId?: number) =>
      repo.rechargedSince(trx, {
        ...scope,
        recipient: recipientKey,
        since: new Date(clock.now().getTime() - recentMs()),
        exceptId,
      });
    // The reference is checked before the recipient: a retried request (same customIdentifier) must be
    // told its reference is used, which is how a client finds the transaction that did land.
    const identifierUsed = (trx: typeof db) =>
      input.customIdentifier !== undefined &&
      repo.customIdentifierUsed({ ...scope, customIdentifier: input.customIdentifier }, trx);
    // a fast answer before the balance checks; the unique index below is what guarantees it
    if (await identifierUsed(db)) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
    if (recipient.phone && (await recentlyRecharged(db))) throw new AppError('PHONE_RECENTLY_RECHARGED');
    if (principal.environment === 'live') {
      // decisions §7: a live top-up needs an upstream provider; none is configured in this version.
      throw new AppError(
        'OPERATOR_NOT_IN_SERVICE',
        'Live top-ups need a fulfilment provider, and none is configured; nothing was debited',
      );
    }
    const outcome = sandboxOutcome(recipient.subscriber);
    if (outcome.kind === 'unavailable') throw new AppError('TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');

    // The id first (a sequence needs no lock), then the transaction, shared with the other top-ups of
    // this account waiting meanwhile (ledger/batcher.ts).
    const { id } = await repo.nextId(db);
    const row = await ledger.orderTransaction({ ...scope, tag: recipientKey }, async (trx) => {
      const now = clock.now();
      const debit = await ledger.debitOrder(trx, {
        ...scope,
        amount: price.cost,
        product: 'topups',
        transactionId: id,
        reason: `top-up ${id} to ${operator.name}`,
        limits: {
          count: account.dailyCountLimit,
          amount: account.dailyAmountLimit === null ? null : dec(account.dailyAmountLimit),
        },
      });
      if (await identifierUsed(trx)) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
      if (recipient.phone && (await recentlyRecharged(trx))) throw new AppError('PHONE_RECENTLY_RECHARGED');
      const deferred = outcome.kind === 'deferred';
      let inserted: TopupRow;
      try {
        inserted = await repo.insert(trx, {
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
          next_check_at: deferred
            ? new Date(now.getTime() + deps.config.topupSandboxProcessingSeconds * 1000)
            : now,
        });
      } catch (error) {
        if (isCustomIdentifierConflict(error)) throw new AppError('CUSTOM_IDENTIFIER_ALREADY_USED');
        throw error;
      }
      if (outcome.kind === 'success') {
        return (await states.succeed(trx, inserted, sandboxResult(inserted))) ?? inserted;
      }
      if (outcome.kind === 'refused') {
        return (
          (await states.refund(trx, inserted, 'refused by the operator (sandbox test number)')) ?? inserted
        );
      }
      return inserted;
    });
    if (row.status === 'REFUNDED') {
      throw new AppError(
        'TOPUP_TRANSACTION_FAILED',
        `The operator refused top-up ${row.id}; the debit was refunded`,
        [{ field: 'transactionId', issue: String(row.id) }],
      );
    }
    return row;
  }

  /** What the sandbox operator answers for a successful top-up. */
  function sandboxResult(row: TopupRow) {
    const operator = catalog.find(row.operator_id);
    const value = `${dec(row.delivered_amount).toFixed()} ${row.delivered_currency_code}`;
    return {
      operatorTransactionId: sandboxOperatorTransactionId(row.id),
      pinDetail: operator?.pin ? sandboxPinDetail(row.id, value) : null,
    };
  }

  return { send, sandboxResult };
}

export type TopupService = ReturnType<typeof createTopupService>;

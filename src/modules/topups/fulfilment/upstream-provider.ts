import { AppError } from '../../../errors/error-codes.ts';
import { dec } from '../../../lib/money.ts';
import { normalizePhone } from '../../../lib/phone.ts';
import { type UpstreamService, upstreamFulfilment, upstreamTransactionOf } from '../../upstream/index.ts';
import type { OperatorRecord } from '../catalog/operator-catalog.ts';
import type { PinDetail, TopupOrder, TopupProvider, TopupRequest, TopupStep } from './provider.ts';

/**
 * Live top-ups bought from the upstream (`airgift upstream set topups ...`), the twin of the gift
 * cards' `upstream-provider.ts`: the top-up is debited and recorded first (the order path), then
 * each step, on the top-up's locked row (never the account's balance row), moves it on at the
 * upstream by the protocol both products share (`upstream/upstream-fulfilment.ts`: `POST /topups`
 * with customIdentifier `ag-live-<id>`, reconciliation by `/topups/reports/transactions` after an
 * unknown outcome, refusals such as 400 TOPUP_TRANSACTION_FAILED or 503
 * TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT refunded with their code). What is the top-ups' own:
 * the amount sent (`upstreamAmountOf`) and the recipient, and what the upstream's states mean here:
 * SUCCESSFUL brings its operatorTransactionId and pinDetail, REFUNDED refunds ours, anything else
 * stays PROCESSING.
 */
/** Without an upstream any more, a top-up it may hold is looked at less often. */
const IDLE_RECHECK_MS = 60_000;

interface UpstreamTopup {
  transactionId: number;
  status: string;
  operatorTransactionId: string | null;
  pinDetail: PinDetail | null;
}

/**
 * What is sent as the upstream top-up's amount, derived from our stored top-up alone (so a re-send
 * after a provably absent attempt sends the same): the local amount (`useLocalAmount: true`, the
 * delivered amount) whenever the operator takes local amounts and this amount is one it takes
 * (RANGE, or one of its local fixed amounts), so the recipient gets exactly what our transaction says,
 * whatever the currencies of the two accounts; else the amount the account asked for, in its
 * currency (`useLocalAmount: false`), which needs the account at the upstream to be in that currency.
 *
 * @example
 * upstreamAmountOf(order, mtnNigeria); // { amount: 15500, useLocalAmount: true }
 */
export function upstreamAmountOf(
  order: Pick<TopupOrder, 'requestedAmount' | 'deliveredAmount'>,
  operator:
    | Pick<OperatorRecord, 'supportsLocalAmounts' | 'denominationType' | 'localFixedAmounts'>
    | undefined,
): { amount: number; useLocalAmount: boolean } {
  const delivered = dec(order.deliveredAmount);
  const local =
    operator?.supportsLocalAmounts === true &&
    (operator.denominationType === 'RANGE' ||
      operator.localFixedAmounts.some((a) => dec(a).equals(delivered)));
  return local
    ? { amount: delivered.toNumber(), useLocalAmount: true }
    : { amount: dec(order.requestedAmount).toNumber(), useLocalAmount: false };
}

/** An E.164 digits string as the spec's phone object (the country read from the number). */
function phoneOf(digits: string, fallbackCountry: string): { countryCode: string; number: string } {
  const country = normalizePhone(`+${digits}`, fallbackCountry)?.countryIso ?? fallbackCountry;
  return { countryCode: country, number: `+${digits}` };
}

export function createUpstreamProvider(deps: {
  upstreams: UpstreamService;
  /** The operator of a top-up (its local amount rules decide the amount sent). */
  operator(operatorId: number): OperatorRecord | undefined;
  /** What answers when no upstream is configured (live's refusing provider). */
  unconfigured: TopupProvider;
}): TopupProvider {
  return upstreamFulfilment<TopupRequest, TopupOrder, UpstreamTopup, TopupStep>(
    deps.upstreams,
    deps.unconfigured,
    {
      product: 'topups',
      noun: 'top-up',
      placePath: '/topups',
      reportsPath: '/topups/reports/transactions',
      body: (order, customIdentifier) => ({
        operatorId: order.operatorId,
        ...upstreamAmountOf(order, deps.operator(order.operatorId)),
        customIdentifier,
        ...(order.recipientPhone !== null
          ? { recipientPhone: phoneOf(order.recipientPhone, order.countryCode) }
          : { recipientEmail: order.recipientEmail }),
        ...(order.senderPhone !== null ? { senderPhone: phoneOf(order.senderPhone, order.countryCode) } : {}),
      }),
      parse: asTopup,
      async follow(_client, order, t, now, save, later) {
        switch (t.status) {
          case 'SUCCESSFUL':
            await save('final');
            return {
              status: 'SUCCESSFUL',
              // the upstream's reference of the operator; its own transaction id when it gave none
              operatorTransactionId: t.operatorTransactionId ?? `upstream-${t.transactionId}`,
              pinDetail: order.pin ? t.pinDetail : null,
            };
          case 'REFUNDED':
            await save('final');
            return {
              status: 'REFUNDED',
              reason: `refunded by the supplier (its transaction ${t.transactionId})`,
            };
          default:
            await save('placed');
            return later(now);
        }
      },
      refusedEarlier: (lastError) =>
        new AppError('TOPUP_TRANSACTION_FAILED', `The supplier refused the top-up: ${lastError}`),
      idleRecheckMs: IDLE_RECHECK_MS,
    },
  );
}

function asTopup(body: unknown): UpstreamTopup | null {
  const t = upstreamTransactionOf(body);
  if (!t) return null;
  const { operatorTransactionId: ref, pinDetail } = body as {
    operatorTransactionId?: unknown;
    pinDetail?: unknown;
  };
  return {
    transactionId: t.transactionId,
    status: t.status,
    operatorTransactionId: ref === undefined || ref === null ? null : String(ref),
    pinDetail: pinDetailOf(pinDetail),
  };
}

const PIN_FIELDS = ['serial', 'info1', 'info2', 'info3', 'value', 'code', 'ivr', 'validity'] as const;

/** The upstream's voucher, its eight fields as strings or null (decisions §6). */
function pinDetailOf(value: unknown): PinDetail | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const field = (k: string) => (v[k] === undefined || v[k] === null ? null : String(v[k]));
  return Object.fromEntries(PIN_FIELDS.map((k) => [k, field(k)])) as unknown as PinDetail;
}

import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors/error-codes.ts';
import { dec } from '../../../lib/money.ts';
import { normalizePhone } from '../../../lib/phone.ts';
import {
  refusalOf,
  type UpstreamAnswer,
  type UpstreamClient,
  type UpstreamService,
  upstreamCustomIdentifier,
} from '../../upstream/index.ts';
import type { OperatorRecord } from '../catalog/operator-catalog.ts';
import type { PinDetail, TopupOrder, TopupProvider, TopupStep } from './provider.ts';

/**
 * Live top-ups bought from the upstream (`airgift upstream set topups ...`), the twin of the gift
 * cards' `upstream-provider.ts`: the top-up is debited and recorded first (the top-up service), then
 * each step, on the top-up's locked row (never the account's balance row), moves it on at the
 * upstream. The customIdentifier sent is derived from our transaction id (`ag-live-<id>`), so no
 * retry can buy twice: the upstream refuses a second top-up with it (CUSTOM_IDENTIFIER_ALREADY_USED),
 * which only sends us to its reports.
 *
 * A step, by what `upstream_calls` knows of the top-up:
 * - nothing (not yet sent): `POST /topups` (the amount: `upstreamAmountOf`). SUCCESSFUL: its
 *   operatorTransactionId and pinDetail are ours. PROCESSING: PROCESSING, polled. REFUNDED: refunded.
 *   A refusal (400 TOPUP_TRANSACTION_FAILED, 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT...):
 *   REFUSED (refunded; the placing request answers its code, see `upstream/upstream-refusals.ts`).
 *   Unknown outcome (timeout, reset, 5xx): PROCESSING, reconciled at the next step. Not sent at all
 *   (unreachable) on the placing request's own step: refused 503, refunded; on a later step (an
 *   earlier attempt may have gone out before a crash): PROCESSING, tried again.
 * - `unknown`: `GET /topups/reports/transactions?customIdentifier=ag-live-<id>`: found, it is followed
 *   as below; provably absent (the upstream answered a list without it), sent again with the same
 *   customIdentifier; no answer, looked at again later.
 * - `placed`: `GET /topups/reports/transactions/{upstreamId}` until it is final.
 * Every step's record commits with the step's state change, in the step's transaction.
 */
const RECHECK_MS = 3_000;
/** Without an upstream any more, a top-up it may hold is looked at less often. */
const IDLE_RECHECK_MS = 60_000;
const PRODUCT = 'topups';

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
  const { upstreams, unconfigured } = deps;
  const calls = upstreams.calls;

  const later = (now: Date, ms = RECHECK_MS): TopupStep => ({
    status: 'PROCESSING',
    nextCheckAt: new Date(now.getTime() + ms),
  });

  /** The step of a top-up whose upstream transaction we know. */
  async function follow(
    trx: Kysely<Database>,
    order: TopupOrder,
    t: UpstreamTopup,
    now: Date,
  ): Promise<TopupStep> {
    const save = (state: 'placed' | 'final', lastError: string | null = null) =>
      calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier: upstreamCustomIdentifier('live', order.transactionId),
        state,
        upstreamTransactionId: t.transactionId,
        upstreamStatus: t.status,
        lastError,
        now,
      });
    switch (t.status) {
      case 'SUCCESSFUL':
        await save('final');
        await upstreams.noteSuccess(trx, PRODUCT);
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
  }

  /** `POST /topups` with the derived customIdentifier, and what its answer makes of the top-up. */
  async function place(
    trx: Kysely<Database>,
    client: UpstreamClient,
    order: TopupOrder,
    now: Date,
    sentBefore: boolean,
  ): Promise<TopupStep> {
    const customIdentifier = upstreamCustomIdentifier('live', order.transactionId);
    const answer = await client.call('POST', '/topups', {
      body: {
        operatorId: order.operatorId,
        ...upstreamAmountOf(order, deps.operator(order.operatorId)),
        customIdentifier,
        ...(order.recipientPhone !== null
          ? { recipientPhone: phoneOf(order.recipientPhone, order.countryCode) }
          : { recipientEmail: order.recipientEmail }),
        ...(order.senderPhone !== null ? { senderPhone: phoneOf(order.senderPhone, order.countryCode) } : {}),
      },
    });
    // `attempt`: the request went out (a request never sent is no attempt)
    const record = (state: 'unknown' | 'refused', lastError: string, attempt = true) =>
      calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier,
        state,
        lastError,
        attempt,
        now,
      });

    if (answer.kind === 'notSent') {
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: answer.reason,
      });
      if (!sentBefore && order.firstStep) {
        await record('refused', answer.reason, false);
        return {
          status: 'REFUSED',
          error: new AppError(
            'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
            'Live fulfilment is unreachable at the moment; the top-up was refunded. Retry later.',
            [],
            { 'Retry-After': '60' },
          ),
        };
      }
      await record('unknown', answer.reason, false);
      return later(now);
    }
    if (answer.kind === 'unknown') {
      await record('unknown', answer.reason);
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `outcome unknown, to reconcile: ${answer.reason}`,
      });
      return later(now);
    }
    if (answer.status >= 200 && answer.status < 300) {
      const t = asTopup(answer.body);
      if (t) {
        await calls.save(trx, {
          product: PRODUCT,
          transactionId: order.transactionId,
          customIdentifier,
          state: 'placed',
          upstreamTransactionId: t.transactionId,
          upstreamStatus: t.status,
          attempt: true,
          now,
        });
        return follow(trx, order, t, now);
      }
      await record('unknown', `HTTP ${answer.status}: an answer that is not a transaction`);
      return later(now);
    }
    // Our identifier is already used there: an earlier attempt of ours reached it. Never a refusal.
    if (answer.errorCode === 'CUSTOM_IDENTIFIER_ALREADY_USED') {
      await record('unknown', 'CUSTOM_IDENTIFIER_ALREADY_USED: an earlier attempt reached the upstream');
      return reconcile(trx, client, order, now, false);
    }
    const refusal = refusalOf(answer);
    // An earlier attempt may still have been under way at the upstream while this one was refused
    // (a request delivered late): refunded only when the upstream provably has none.
    if (sentBefore) {
      const found = await lookUp(client, order.transactionId);
      if (found) {
        if (typeof found !== 'string') return follow(trx, order, found, now);
        await record(
          'unknown',
          `refused (${refusal.description}), then no answer from the reports: ${found}`,
        );
        return later(now);
      }
    }
    await record('refused', refusal.description);
    if (refusal.insufficientBalance) {
      await upstreams.noteInsufficientBalance(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `the upstream's balance is too low for top-up ${order.transactionId}; refunded (${refusal.description})`,
      });
    } else if (refusal.ours) {
      await upstreams.noteError(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        message: `refused for our account: ${refusal.description}`,
      });
    }
    return { status: 'REFUSED', error: refusal.error };
  }

  /** An attempt whose outcome is unknown: the upstream's reports by our customIdentifier decide. */
  async function reconcile(
    trx: Kysely<Database>,
    client: UpstreamClient,
    order: TopupOrder,
    now: Date,
    mayPlace: boolean,
  ): Promise<TopupStep> {
    const found = await lookUp(client, order.transactionId);
    if (typeof found === 'string') {
      await calls.save(trx, {
        product: PRODUCT,
        transactionId: order.transactionId,
        customIdentifier: upstreamCustomIdentifier('live', order.transactionId),
        state: 'unknown',
        lastError: `reconcile: ${found}`,
        now,
      });
      return later(now);
    }
    if (found) return follow(trx, order, found, now);
    // provably none: buying now (same identifier) cannot buy twice
    return mayPlace ? place(trx, client, order, now, true) : later(now);
  }

  return {
    async accept(request) {
      if (!(await upstreams.client(PRODUCT))) await unconfigured.accept(request);
    },

    // Nothing to take in the top-up's transaction; having `reserve` makes the top-up service take the
    // first step after the commit, so no call is ever made while the account's balance is locked.
    async reserve() {},

    async step(order, now, trx) {
      const call = await calls.get(trx, PRODUCT, order.transactionId);
      const client = await upstreams.client(PRODUCT, trx);
      if (!client) {
        // removed since: a top-up never sent is refused; one the upstream may have waits for it
        if (!call || call.state === 'refused') {
          try {
            await unconfigured.accept(order);
          } catch (error) {
            if (error instanceof AppError) return { status: 'REFUSED', error };
            throw error;
          }
        }
        return later(now, IDLE_RECHECK_MS);
      }
      if (!call) return place(trx, client, order, now, !order.firstStep);
      switch (call.state) {
        case 'unknown':
          return reconcile(trx, client, order, now, true);
        case 'refused':
          return {
            status: 'REFUSED',
            error: new AppError(
              'TOPUP_TRANSACTION_FAILED',
              `The supplier refused the top-up: ${call.last_error}`,
            ),
          };
        default: {
          const id = call.upstream_transaction_id;
          if (id === null) return reconcile(trx, client, order, now, true);
          const answer = await client.call('GET', `/topups/reports/transactions/${id}`);
          const t = answer.kind === 'answered' && answer.status === 200 ? asTopup(answer.body) : null;
          if (!t) return later(now);
          return follow(trx, order, t, now);
        }
      }
    },
  };
}

/**
 * The upstream's top-up with our customIdentifier for `transactionId` (its reports' filter of that
 * name): found, provably none (null: the upstream answered a list without it), or why the reports
 * could not be read (text).
 */
async function lookUp(client: UpstreamClient, transactionId: number): Promise<UpstreamTopup | null | string> {
  const customIdentifier = upstreamCustomIdentifier('live', transactionId);
  const answer = await client.call('GET', '/topups/reports/transactions', { query: { customIdentifier } });
  const found = listOf(answer);
  if (found === null) {
    return answer.kind === 'answered'
      ? `HTTP ${answer.status} ${answer.errorCode ?? ''}`.trim()
      : answer.reason;
  }
  // only a transaction with our identifier counts (an upstream that ignored the filter lists others)
  return (
    found
      .filter((t) => (t as { customIdentifier?: unknown })?.customIdentifier === customIdentifier)
      .map(asTopup)
      .find((t) => t !== null) ?? null
  );
}

function asTopup(body: unknown): UpstreamTopup | null {
  const t = body as {
    transactionId?: unknown;
    status?: unknown;
    operatorTransactionId?: unknown;
    pinDetail?: unknown;
  } | null;
  if (!t || typeof t !== 'object' || typeof t.status !== 'string') return null;
  const id = Number(t.transactionId);
  if (!Number.isSafeInteger(id)) return null;
  const ref = t.operatorTransactionId;
  return {
    transactionId: id,
    status: t.status,
    operatorTransactionId: ref === undefined || ref === null ? null : String(ref),
    pinDetail: pinDetailOf(t.pinDetail),
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

/** A report list, paged (`content`) or bare; null when there was no answer. */
function listOf(answer: UpstreamAnswer): unknown[] | null {
  if (answer.kind !== 'answered' || answer.status !== 200) return null;
  if (Array.isArray(answer.body)) return answer.body;
  const content = (answer.body as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? content : null;
}

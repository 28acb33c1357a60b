import { createHash } from 'node:crypto';
import { AppError } from '../../../errors/error-codes.ts';
import type { PinDetail, TopupOrder, TopupProvider, TopupStep } from './provider.ts';

/**
 * The sandbox's deterministic fulfilment (decisions §7), like a payment provider's test cards. The
 * outcome is read from the last five digits of the recipient's subscriber number (the national number,
 * or the digits of a Nauta address's local part); every other valid top-up succeeds at once.
 *
 * | ends in | outcome |
 * |---|---|
 * | 99990 | PROCESSING, then SUCCESSFUL `processingMs` after it was accepted |
 * | 99991 | PROCESSING, then REFUNDED (refund entry) `processingMs` after it was accepted |
 * | 99992 | refused at once: 400 TOPUP_TRANSACTION_FAILED, debit refunded, REFUNDED in the reports |
 * | 99993 | 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT, nothing recorded or debited |
 *
 * @example
 * const simulator = createSandboxSimulator({ processingMs: 30_000 });
 * simulator.accept({ operatorId: 1001, subscriber: '8031299993' }); // throws 503
 * simulator.step(order, now); // { status: 'PROCESSING', nextCheckAt } for a number ending 99990
 */
type SandboxOutcome =
  | { kind: 'success' }
  | { kind: 'deferred'; final: 'SUCCESSFUL' | 'REFUNDED' }
  | { kind: 'refused' }
  | { kind: 'unavailable' };

/** `shown`: the outcome as the dashboard's docs page says it. */
const SANDBOX_TEST_SUFFIXES = {
  '99990': { kind: 'deferred', final: 'SUCCESSFUL', shown: 'PROCESSING, then SUCCESSFUL' },
  '99991': { kind: 'deferred', final: 'REFUNDED', shown: 'PROCESSING, then REFUNDED' },
  '99992': { kind: 'refused', shown: 'refused at once (TOPUP_TRANSACTION_FAILED), refunded' },
  '99993': { kind: 'unavailable', shown: '503, nothing recorded' },
} as const satisfies Record<string, SandboxOutcome & { shown: string }>;

/** The test numbers as the dashboard's docs page lists them. */
export const SANDBOX_TEST_NUMBERS = Object.entries(SANDBOX_TEST_SUFFIXES).map(([suffix, { shown }]) => ({
  value: `number ending ${suffix}`,
  outcome: shown,
}));

function sandboxOutcome(subscriber: string): SandboxOutcome {
  const suffix = subscriber.slice(-5) as keyof typeof SANDBOX_TEST_SUFFIXES;
  return SANDBOX_TEST_SUFFIXES[suffix] ?? { kind: 'success' };
}

export function createSandboxSimulator(timings: { processingMs: number }): TopupProvider {
  return {
    accept({ subscriber }) {
      if (sandboxOutcome(subscriber).kind === 'unavailable') {
        throw new AppError('TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
      }
    },
    step(order: TopupOrder, now: Date): TopupStep {
      const outcome = sandboxOutcome(order.subscriber);
      if (outcome.kind === 'refused') {
        return { status: 'REFUNDED', reason: 'refused by the operator (sandbox test number)' };
      }
      if (outcome.kind === 'deferred') {
        const at = new Date(order.createdAt.getTime() + timings.processingMs);
        if (now < at) return { status: 'PROCESSING', nextCheckAt: at };
        if (outcome.final === 'REFUNDED') {
          return { status: 'REFUNDED', reason: 'not processed by the operator (sandbox test number)' };
        }
      }
      return {
        status: 'SUCCESSFUL',
        operatorTransactionId: sandboxOperatorTransactionId(order.transactionId),
        pinDetail: order.pin ? sandboxPinDetail(order.transactionId, order.deliveredValue) : null,
      };
    },
  };
}

/** The operator's reference for a sandbox top-up: stable for one transaction id. */
function sandboxOperatorTransactionId(transactionId: number): string {
  return `SBX${String(transactionId).padStart(10, '0')}`;
}

/** A PIN voucher for a PIN operator's sandbox top-up: all eight fields, derived from the id. */
function sandboxPinDetail(transactionId: number, value: string, validityDays = 90): PinDetail {
  const digest = createHash('sha256').update(`airgift-sandbox-pin:${transactionId}`).digest();
  const digits = (from: number, count: number) =>
    Array.from(digest.subarray(from, from + count), (b) => String(b % 10)).join('');
  return {
    serial: `SN${digits(0, 10)}`,
    info1: 'Dial *123*<code># to load the voucher',
    info2: 'Sandbox voucher: no value',
    info3: null,
    value,
    code: digits(10, 14),
    ivr: '*123#',
    validity: `${validityDays} days`,
  };
}

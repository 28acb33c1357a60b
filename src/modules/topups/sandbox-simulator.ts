import { createHash } from 'node:crypto';

/**
 * The sandbox's deterministic fulfilment (decisions §7), like a payment provider's test cards. The
 * outcome is read from the last five digits of the recipient's subscriber number (the national number,
 * or the digits of a Nauta address's local part); every other valid top-up succeeds at once.
 *
 * | ends in | outcome |
 * |---|---|
 * | 99990 | PROCESSING, then SUCCESSFUL when the worker checks it |
 * | 99991 | PROCESSING, then REFUNDED (refund entry) when the worker checks it |
 * | 99992 | refused at once: 400 TOPUP_TRANSACTION_FAILED, debit refunded, REFUNDED in the reports |
 * | 99993 | 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT, nothing recorded or debited |
 *
 * @example
 * sandboxOutcome('8031299990') // { kind: 'deferred', final: 'SUCCESSFUL' }
 */
export type SandboxOutcome =
  | { kind: 'success' }
  | { kind: 'deferred'; final: 'SUCCESSFUL' | 'REFUNDED' }
  | { kind: 'refused' }
  | { kind: 'unavailable' };

export const SANDBOX_TEST_SUFFIXES = {
  '99990': { kind: 'deferred', final: 'SUCCESSFUL' },
  '99991': { kind: 'deferred', final: 'REFUNDED' },
  '99992': { kind: 'refused' },
  '99993': { kind: 'unavailable' },
} as const satisfies Record<string, SandboxOutcome>;

export function sandboxOutcome(subscriber: string): SandboxOutcome {
  const suffix = subscriber.slice(-5) as keyof typeof SANDBOX_TEST_SUFFIXES;
  return SANDBOX_TEST_SUFFIXES[suffix] ?? { kind: 'success' };
}

/** The operator's reference for a sandbox top-up: stable for one transaction id. */
export function sandboxOperatorTransactionId(transactionId: number): string {
  return `SBX${String(transactionId).padStart(10, '0')}`;
}

/** A PIN voucher for a PIN operator's sandbox top-up: all eight fields, derived from the id. */
export function sandboxPinDetail(transactionId: number, value: string, validityDays = 90) {
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

import type { FulfilmentProvider } from '../../../lib/fulfilment-provider.ts';

/**
 * The top-up provider: the shape of `lib/fulfilment-provider.ts` (the gift cards' too) with top-up
 * orders and steps. `accept` refuses a top-up before anything is written (no provider for the
 * environment, the operator unavailable now); `step` says what became of an accepted top-up: the
 * operator's reference (and, for PIN operators, the voucher), a refusal, or when to look again. What
 * a step does to the status and the ledger is decided by `../orders/topup-states.ts` only.
 */
export interface TopupRequest {
  operatorId: number;
  /** The recipient's subscriber digits (national number, or a Nauta address's local part). */
  subscriber: string;
}

export interface TopupOrder extends TopupRequest {
  transactionId: number;
  /** The operator sells PIN vouchers: a success carries `pinDetail`. */
  pin: boolean;
  /** What the recipient gets, e.g. `'15500 NGN'`. */
  deliveredValue: string;
  createdAt: Date;
}

/** The eight fields of a PIN voucher (decisions §6: strings or null). */
export interface PinDetail {
  serial: string | null;
  info1: string | null;
  info2: string | null;
  info3: string | null;
  value: string | null;
  code: string | null;
  ivr: string | null;
  validity: string | null;
}

export type TopupStep =
  | { status: 'SUCCESSFUL'; operatorTransactionId: string; pinDetail: PinDetail | null }
  /** Not finished: look again at `nextCheckAt`. */
  | { status: 'PROCESSING'; nextCheckAt: Date }
  /** Not delivered: the debit is given back. */
  | { status: 'REFUNDED'; reason: string };

export type TopupProvider = FulfilmentProvider<TopupRequest, TopupOrder, TopupStep>;

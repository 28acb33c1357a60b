import type { OrderProvider, RefusedStep } from '../../../lib/fulfilment-provider.ts';

/**
 * The top-up provider: the transactional shape of `lib/fulfilment-provider.ts` (the gift cards'
 * too) with top-up orders and steps. `accept` refuses a top-up before anything is written (no
 * provider for the environment, the operator unavailable now); `step` says what became of an
 * accepted top-up: the operator's reference (and, for PIN operators, the voucher), a refusal, or when
 * to look again. What a step does to the status and the ledger is decided by
 * `../orders/order-states.ts` only.
 *
 * The sandbox simulator answers from memory at once, so its first step is taken before the top-up's
 * row is written. A provider with `reserve` (the upstream) takes its first step right after the
 * top-up and its debit commit, on the top-up's locked row and never under the account's balance lock.
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
  /** What the account asked for, in its currency (decimal text). */
  requestedAmount: string;
  /** What the recipient gets, in the operator's currency (decimal text). */
  deliveredAmount: string;
  /** The operator's country (ISO alpha-2): the recipient phone's. */
  countryCode: string;
  /** The recipient's E.164 digits (no '+'), or null for the e-mail addressed operator. */
  recipientPhone: string | null;
  recipientEmail: string | null;
  /** The sender's E.164 digits (no '+'), when given. */
  senderPhone: string | null;
  /**
   * True for the step the placing request takes right after its commit: nothing was sent anywhere
   * for this top-up before it (a provider that calls out may then refuse an unreachable peer).
   */
  firstStep: boolean;
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
  | { status: 'REFUNDED'; reason: string }
  /** Refused by whoever fulfils it (an upstream's refusal): refunded, and its error answered. */
  | RefusedStep;

export type TopupProvider = OrderProvider<TopupRequest, TopupOrder, TopupStep>;

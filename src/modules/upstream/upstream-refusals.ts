import { AppError, ERROR_CODES, type ErrorCode } from '../../errors/error-codes.ts';
import type { UpstreamAnswer } from './upstream-client.ts';

/**
 * What an upstream's refusal of an order means for our caller (both products). A refusal about the
 * order itself (its amount, its product, the operator, TOPUP_TRANSACTION_FAILED...) is passed on
 * with the same code and status. A refusal about OUR account at the upstream (its balance, its
 * credentials or scopes, its daily limits, its rate limit) is not the caller's doing: it is answered
 * 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT with a message that says so, and noted on the
 * upstream's health. A 503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT is passed on as it is.
 *
 * @example
 * refusalOf({ kind: 'answered', status: 400, errorCode: 'INVALID_AMOUNT_FOR_OPERATOR', ... });
 * // { error: AppError(INVALID_AMOUNT_FOR_OPERATOR), ours: false }
 * refusalOf({ kind: 'answered', status: 403, errorCode: 'INSUFFICIENT_BALANCE', ... });
 * // { error: AppError(TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT), ours: true, insufficientBalance: true }
 */
export interface Refusal {
  error: AppError;
  /** The refusal concerns our own account at the upstream (noted on its health). */
  ours: boolean;
  insufficientBalance: boolean;
  /** For the log and the health: the upstream's status, code and message. */
  description: string;
}

const OUR_ACCOUNT_CODES = new Set([
  'INSUFFICIENT_BALANCE',
  'AUTHENTICATION_FAILURE',
  'TOKEN_EXPIRED',
  'NOT_AUTHORIZED',
  'INACTIVE_ACCOUNT',
  'MAX_DAILY_TRANSACTION_COUNT_REACHED',
  'MAX_DAILY_TRANSACTION_AMOUNT_REACHED',
  'RATE_LIMIT_REACHED',
  'ACCOUNT_NOT_FOUND',
]);

/** Retry-After of a refusal that is the upstream's or our account's passing state. */
const RETRY_AFTER_SECONDS = '60';
/** A refunded order keeps its customIdentifier, so a retry must carry a new one. */
export const RETRY_NEW = 'Retry later with a new customIdentifier.';

export function refusalOf(answer: Extract<UpstreamAnswer, { kind: 'answered' }>): Refusal {
  const code = answer.errorCode;
  const description =
    `HTTP ${answer.status} ${code ?? ''}${answer.message ? `: ${answer.message}` : ''}`.trim();
  const later = (message: string) =>
    new AppError('TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT', message, [], {
      'Retry-After': RETRY_AFTER_SECONDS,
    });
  if (code === 'INSUFFICIENT_BALANCE') {
    return {
      error: later(
        `Live fulfilment is unavailable at the moment (the supplier cannot take orders now); the order was refunded. ${RETRY_NEW}`,
      ),
      ours: true,
      insufficientBalance: true,
      description,
    };
  }
  if (answer.status === 401 || answer.status === 429 || (code !== null && OUR_ACCOUNT_CODES.has(code))) {
    return {
      error: later(`Live fulfilment is unavailable at the moment; the order was refunded. ${RETRY_NEW}`),
      ours: true,
      insufficientBalance: false,
      description,
    };
  }
  if (code === 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT') {
    return {
      // Not the supplier's own message: it would say to retry with the same customIdentifier, which our
      // refunded order now holds (a retry with it is refused as already used).
      error: later(
        `Live fulfilment cannot take orders at the moment (the supplier answered 503); the order was refunded. ${RETRY_NEW}`,
      ),
      ours: false,
      insufficientBalance: false,
      description,
    };
  }
  const known =
    code !== null && code in ERROR_CODES && ERROR_CODES[code as ErrorCode].status === answer.status;
  const error = known
    ? new AppError(code as ErrorCode, answer.message ?? undefined)
    : new AppError(
        answer.status === 400
          ? 'INVALID_REQUEST'
          : answer.status === 404
            ? 'RESOURCE_NOT_FOUND'
            : 'UNPROCCESSABLE_ENTITY',
        `The supplier refused the order (${description}); the order was refunded.`,
      );
  return { error, ours: false, insufficientBalance: false, description };
}

/**
 * The one catalogue of error codes: status, default message, and what a caller should do. The
 * envelope, the docs page (`/docs/errors`) and the README all read from here. Codes are spelled as
 * the specs spell them (UNPROCCESSABLE_ENTITY included).
 */
export interface ErrorCodeInfo {
  status: number;
  message: string;
  fix: string;
}

export const ERROR_CODES = {
  INVALID_REQUEST: {
    status: 400,
    message: 'The request is malformed or a field is missing or invalid.',
    fix: 'Read `details`: each entry names a field and what is wrong with it.',
  },
  INVALID_AMOUNT: {
    status: 400,
    message: 'The amount is not numerical.',
    fix: 'Send the amount as a number.',
  },
  INVALID_AMOUNT_FOR_OPERATOR: {
    status: 400,
    message: 'The amount is not valid for the operator.',
    fix: "Use one of the operator's fixedAmounts, or a value between its minAmount and maxAmount.",
  },
  INVALID_RECIPIENT_PHONE: {
    status: 400,
    message: 'recipientPhone is not valid for the given country.',
    fix: 'Send a mobile number of that country, with or without its calling code.',
  },
  INVALID_SENDER_PHONE: {
    status: 400,
    message: 'senderPhone is not valid for the given country.',
    fix: 'Send a valid number for the sender country, or leave senderPhone out.',
  },
  INVALID_PHONE_NUMBER: {
    status: 400,
    message: 'The phone number is not valid.',
    fix: 'Check the digits and the country code.',
  },
  PHONE_RECENTLY_RECHARGED: {
    status: 400,
    message: 'The same phone was topped up less than 2 minutes before.',
    fix: 'Wait two minutes before topping up the same number again.',
  },
  CUSTOM_IDENTIFIER_ALREADY_USED: {
    status: 400,
    message: 'customIdentifier has already been used for another transaction.',
    fix: 'Use a new customIdentifier for every order; look the earlier one up in the reports.',
  },
  TOPUP_TRANSACTION_FAILED: {
    status: 400,
    message: 'The top-up failed.',
    fix: 'The operator refused it; the debit was refunded. Try again later or another amount.',
  },
  AUTHENTICATION_FAILURE: {
    status: 401,
    message: 'Full authentication is required to access this resource.',
    fix: "Send `Authorization: Bearer <token>` with a token issued for this base's audience.",
  },
  TOKEN_EXPIRED: {
    status: 401,
    message: 'The access token has expired.',
    fix: 'Request a new token from the token service and retry.',
  },
  NOT_AUTHORIZED: {
    status: 403,
    message: 'The credential is not authorized for this request.',
    fix: 'Use a credential whose scopes include the one this endpoint needs.',
  },
  ROLE_NOT_ALLOWED: {
    status: 403,
    message: 'Your role does not allow this.',
    fix: "Ask an owner of the account (in the console, an admin) for a role that does: docs/dashboard-and-console.md lists each role's rights.",
  },
  INSUFFICIENT_BALANCE: {
    status: 403,
    message: 'The account balance is too low for the operation.',
    fix: 'Fund the account or order for a smaller amount.',
  },
  INACTIVE_ACCOUNT: {
    status: 403,
    message: 'The account was deactivated.',
    fix: 'Ask the operator to reactivate the account.',
  },
  MAX_DAILY_TRANSACTION_COUNT_REACHED: {
    status: 403,
    message: "The account's daily transaction count limit is reached.",
    fix: 'Wait until 00:00 UTC or ask the operator to raise the limit.',
  },
  MAX_DAILY_TRANSACTION_AMOUNT_REACHED: {
    status: 403,
    message: "The account's daily total amount limit is reached.",
    fix: 'Wait until 00:00 UTC or ask the operator to raise the limit.',
  },
  RESOURCE_NOT_FOUND: {
    status: 404,
    message: 'The resource does not exist.',
    fix: 'Check the path and the id; ids of another account are not found either.',
  },
  COULD_NOT_AUTO_DETECT_OPERATOR: {
    status: 404,
    message: 'Operator auto-detection was not possible.',
    fix: 'Pick the operator from /operators/countries/{iso} and send its operatorId.',
  },
  COUNTRY_NOT_SUPPORTED: {
    status: 404,
    message: 'The country is disabled or unsupported.',
    fix: 'List the supported countries with GET /countries.',
  },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'The account does not exist.', fix: 'Check the account id.' },
  TRANSFER_ALREADY_DECIDED: {
    status: 409,
    message: 'The bank transfer was already confirmed or rejected.',
    fix: 'Read the transfer again: its status, decidedAt and decidedBy say what happened. A transfer is decided once and funds the balance at most once.',
  },
  METHOD_NOT_SUPPORTED: {
    status: 405,
    message: 'The HTTP method is not supported on this path.',
    fix: 'Use a method the endpoint defines (see the `Allow` header).',
  },
  MEDIA_TYPE_NOT_ACCEPTABLE: {
    status: 406,
    message: 'The Accept media type cannot be produced.',
    fix: 'Accept application/json or application/com.<vendor>.<service>-v1+json.',
  },
  REQUEST_TOO_LARGE: {
    status: 413,
    message: 'The request body is larger than the server accepts.',
    fix: 'Send a smaller body; no endpoint needs more than a few kilobytes.',
  },
  REQUEST_HEADERS_TOO_LARGE: {
    status: 431,
    message: 'The request headers are larger than the server accepts.',
    fix: 'Send fewer or shorter headers; the limit is HEADER_LIMIT bytes for all of them together.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request media type is not supported.',
    fix: 'Send the body as JSON with `Content-Type: application/json`.',
  },
  UNPROCCESSABLE_ENTITY: {
    status: 422,
    message: 'The request fails business validation.',
    fix: 'Read the message; the request is well-formed but cannot be carried out.',
  },
  BANK_DETAILS_NOT_SET: {
    status: 422,
    message: "No bank details are set for the account's currency.",
    fix: "The operator sets them (`airgift bank-details set`, or the console's Funding page); until then there is nowhere to send a transfer.",
  },
  OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE: {
    status: 422,
    message: 'The operator is disabled or inactive.',
    fix: 'Choose another operator or try later.',
  },
  OPERATOR_NOT_IN_SERVICE: {
    status: 422,
    message: 'The operator is not in service.',
    fix: 'On live, top-ups need a fulfilment provider and this server has none configured: no operator will work, and nothing was debited. Use the sandbox base, or ask the operator of this server to configure live fulfilment.',
  },
  DELIVERY_RESEND_TOO_SOON: {
    status: 429,
    message: "The order's recipient was resent its message less than 30 seconds ago.",
    fix: 'Wait 30 seconds between resends of one order; GET its deliveries to see what went.',
  },
  RATE_LIMIT_REACHED: {
    status: 429,
    message: 'Too many requests.',
    fix: 'Wait the number of seconds in `Retry-After`, then retry.',
  },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    message: 'An unexpected error occurred.',
    fix: 'Retry later; quote the request id (X-Request-Id) when reporting it.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable.',
    fix: 'Wait the seconds in `Retry-After` (with some jitter), then retry.',
  },
  TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT: {
    status: 503,
    message: 'The transaction cannot be processed at the moment.',
    fix: 'Wait the seconds in `Retry-After`, then retry with the same customIdentifier; if the retry answers CUSTOM_IDENTIFIER_ALREADY_USED, the first attempt was recorded: read it from the reports.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  field: string;
  issue: string;
}

/**
 * The one error type services throw. It names a domain code, never an HTTP status; `error-handler.ts`
 * turns it into the envelope with the catalogue's status.
 *
 * @example
 * throw new AppError('INSUFFICIENT_BALANCE');
 * throw new AppError('INVALID_REQUEST', 'quantity must be 1 to 10', [{ field: 'quantity', issue: 'too large' }]);
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    details: ErrorDetail[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message ?? ERROR_CODES[code].message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

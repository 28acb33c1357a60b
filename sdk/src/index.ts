/**
 * @airgift/sdk: typed clients for airgift's gift card and mobile top-up APIs and its admin API.
 * Tokens, retries, paging and exact card codes are handled for you; only the platform `fetch` is used.
 */

export type * from './admin.js';
export { Admin } from './admin.js';
export { Airgift } from './airgift.js';
export type { OAuthErrorCode, ServerErrorCode } from './error-codes.js';
export { OAUTH_ERROR_CODES, SERVER_ERROR_CODES } from './error-codes.js';
export {
  AirgiftError,
  type AirgiftErrorInit,
  type ClientErrorCode,
  type ErrorCode,
  type ErrorDetail,
} from './errors.js';
export { GiftCards } from './giftcards.js';
export type * from './giftcards-types.js';
export { parseWithExactNumbers, quoteNumbersOf } from './lossless-json.js';
export {
  type BaseUrlOptions,
  type ClientOptions,
  type CommonOptions,
  type Credentials,
  DEFAULT_SERVER_URL,
  type EnvironmentOptions,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  type RequestInfo,
  type RequestOptions,
  type RetryOptions,
  resolveBases,
} from './options.js';
export { DEFAULT_PAGE_SIZE, Page, type PagePromise, toArray } from './page.js';
export { iterateArrayPages } from './paging.js';
export { requestIdOf, type WithRequestId } from './request-id.js';
export { backoffDelay, retryAfterMs, retryPolicy } from './retry.js';
export type { TokenResponse } from './token-provider.js';
export { Topups } from './topups.js';
export type * from './topups-types.js';

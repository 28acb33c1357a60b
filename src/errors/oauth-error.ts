/**
 * The token endpoint's errors (RFC 6749 §5.2): the OAuth error code is the domain error; its HTTP
 * status is read from this table at the edge (`http/error-handler.ts`), which answers the OAuth body
 * `{error, error_description}` instead of the envelope. The token service never picks a status.
 *
 * @example
 * throw new OAuthError('invalid_client', 'Unknown client, wrong secret, or revoked credential'); // 401
 */
export const OAUTH_ERRORS = {
  invalid_request: { status: 400 },
  unsupported_grant_type: { status: 400 },
  invalid_target: { status: 400 },
  invalid_scope: { status: 400 },
  invalid_client: { status: 401 },
  // RFC 6749 names no error for a rate limit: the common `too_many_requests`, with Retry-After.
  too_many_requests: { status: 429 },
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    /** Headers the answer carries (a 429's Retry-After and RateLimit-*). */
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }

  get status(): 400 | 401 | 429 {
    return OAUTH_ERRORS[this.error].status;
  }
}

import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../errors/error-codes.ts';
import { OAuthError } from '../../errors/oauth-error.ts';
import type { Base, BaseRouter } from '../../http/bases.ts';
import type { ChangeVersions } from '../../lib/change-versions.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import type { CredentialRow, CredentialsRepository } from './credentials-repository.ts';
import type { Principal } from './principal.ts';
import { scopesForProduct } from './scopes.ts';
import { createSecretCheck } from './secret-check.ts';
import { createTokenCache } from './token-cache.ts';

/** What a client id can look like: letters, digits, `_` and `-` (ours: `ag_test_…`, `ag_live_…`). */
const CLIENT_ID = /^[\w-]{1,128}$/;
/**
 * The OAuth 2.0 client-credentials token service (decisions §2). Tokens are HS256 JWTs whose
 * audience is one product base; `authenticate` accepts a token only on that base, only while it is
 * unexpired, and only while its credential is not revoked. A verified token is kept in memory until
 * it expires (token-cache.ts); a revocation empties that cache in every server within a second.
 */
export interface TokenServiceDeps {
  credentials: CredentialsRepository;
  bases: BaseRouter;
  clock: Clock;
  signingKey: Uint8Array;
  issuer: string;
  lifetimeSeconds: { live: number; sandbox: number };
  /** When given, verified tokens are kept in memory until they expire or `auth` changes. */
  changes?: ChangeVersions;
}

export interface TokenRequest {
  grant_type?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
  audience?: unknown;
}

export interface TokenResponse {
  access_token: string;
  scope: string;
  expires_in: number;
  token_type: 'Bearer';
}

/**
 * The token endpoint's rate limits (http/rate-limit.ts), told of each request's outcome once its
 * secret has been checked, so that wrong secrets never spend the budget of the client they name.
 */
export interface TokenGuard {
  /** A right secret: counts against the client's budget; throws a 429 OAuthError past it. */
  granted(clientId: string): Promise<void>;
  /** A refusal: counted against the address (and the client id it names); the error to answer. */
  refused(clientId: string | undefined, error: OAuthError): Promise<OAuthError>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function createTokenService(deps: TokenServiceDeps) {
  const { credentials, bases, clock, signingKey, issuer } = deps;
  const verified = createTokenCache(deps.changes);
  const secretIsRight = createSecretCheck(credentials, clock);

  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 500 ? v : undefined);

  /**
   * A token for a client-credentials request (RFC 6749 §4.4). The secret is checked before any
   * budget is spent: `guard` then counts a right one against its client and a refusal against the
   * address that sent it. `proven` hears the caller once its secret is proven (for the account's
   * request log), whatever is answered then.
   */
  async function issue(
    body: TokenRequest,
    guard?: TokenGuard,
    proven?: (caller: Principal) => void,
  ): Promise<TokenResponse> {
    let credential: CredentialRow;
    let base: Base;
    let scopes: string[];
    try {
      ({ credential, base, scopes } = await grant(body, proven));
    } catch (error) {
      if (guard && error instanceof OAuthError) throw await guard.refused(str(body.client_id), error);
      throw error;
    }
    await guard?.granted(credential.clientId);
    return sign(credential, base, scopes);
  }

  async function grant(body: TokenRequest, proven?: (caller: Principal) => void) {
    const clientId = str(body.client_id);
    const clientSecret = str(body.client_secret);
    const audience = str(body.audience);
    if (body.grant_type !== 'client_credentials') {
      if (body.grant_type === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
      throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported');
    }
    if (!clientId || !clientSecret) {
      throw new OAuthError('invalid_request', 'client_id and client_secret are required strings');
    }
    if (!audience) throw new OAuthError('invalid_request', 'audience is required');
    const base = bases.byUrl(audience);
    if (!base?.environment || (base.kind !== 'giftcards' && base.kind !== 'topups')) {
      throw new OAuthError(
        'invalid_target',
        `Unknown audience ${audience}; use one of the product base URLs`,
      );
    }

    // A client_id that cannot be one of ours (ours are `ag_test_…`/`ag_live_…`; text with a NUL byte
    // cannot even be sent to PostgreSQL) is unknown without a look-up; the secret is checked all the same.
    const credential = CLIENT_ID.test(clientId) ? await credentials.find(clientId) : undefined;
    const secretOk = await secretIsRight(clientSecret, credential);
    if (!credential || !secretOk || credential.revokedAt) {
      throw new OAuthError('invalid_client', 'Unknown client, wrong secret, or revoked credential');
    }
    proven?.({
      accountId: credential.accountId,
      environment: credential.environment,
      clientId: credential.clientId,
      scopes: [],
    });
    // A credential of the other environment is unknown to this one (RFC 6749 §5.2 invalid_client,
    // docs/decisions.md), but its owner proved the secret, so the answer says which environment it is for.
    if (credential.environment !== base.environment) {
      throw new OAuthError(
        'invalid_client',
        `This credential belongs to the ${credential.environment} environment; the audience is ${base.environment}: use a ${base.environment} credential, or the ${credential.environment} base as audience`,
      );
    }
    const scopes = scopesForProduct(credential.scopes, base.kind);
    // A token that may call nothing on its base is no use to anyone: refuse it here, by name,
    // rather than hand out one whose every call answers 403.
    if (scopes.length === 0) {
      throw new OAuthError(
        'invalid_scope',
        `This credential has no scope of the ${base.kind} service (its scopes: ${credential.scopes.join(' ') || 'none'}); ask for a credential with one`,
      );
    }
    return { credential, base, scopes };
  }

  async function sign(credential: CredentialRow, base: Base, scopes: string[]): Promise<TokenResponse> {
    // The dashboard shows a credential's last use to the minute: one write a minute at most.
    const at = clock.now();
    if (!credential.lastUsedAt || at.getTime() - credential.lastUsedAt.getTime() >= 60_000) {
      await credentials.touch(credential.clientId, at);
    }
    const { environment } = credential; // the base's, checked in grant()
    const lifetime = deps.lifetimeSeconds[environment];
    const now = Math.floor(clock.now().getTime() / 1000);
    const token = await new SignJWT({
      scope: scopes.join(' '),
      acc: credential.accountId,
      env: environment,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(credential.clientId)
      .setAudience(base.url)
      .setJti(randomToken(12))
      .setIssuedAt(now)
      .setExpirationTime(now + lifetime)
      .sign(signingKey);
    return { access_token: token, scope: scopes.join(' '), expires_in: lifetime, token_type: 'Bearer' };
  }

  /**
   * The header's token as BEARER finds it, and its principal if kept. The header as clients send it,
   * `Bearer <token>`, is looked up first without BEARER (~1 µs over a ~700-character header): a kept
   * token is a match of BEARER (it was verified as one), so when the rest of the header is a kept
   * token, BEARER would have found that very token. Each token is looked up once.
   */
  function lookUp(authorization: string | undefined, base: Base, nowMs: number) {
    const common = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const kept = common === undefined ? undefined : verified.get(base.url, common, nowMs);
    if (kept) return { kept, token: common };
    const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    const other = token === undefined || token === common ? undefined : verified.get(base.url, token, nowMs);
    return { kept: other, token };
  }

  async function authenticate(authorization: string | undefined, base: Base): Promise<Principal> {
    const now = clock.now();
    const { kept, token } = lookUp(authorization, base, now.getTime());
    if (kept) return kept;
    if (token === undefined)
      throw new AppError('AUTHENTICATION_FAILURE', missingBearerMessage(authorization));
    const ticket = verified.ticket();
    let claims: { sub?: string; scope?: unknown; acc?: unknown; env?: unknown; exp?: number };
    try {
      const result = await jwtVerify(token, signingKey, {
        issuer,
        audience: base.url,
        algorithms: ['HS256'],
        currentDate: now,
        clockTolerance: 0,
        // A token without an expiry would be good for ever: none of ours lacks one.
        requiredClaims: ['exp', 'sub'],
      });
      claims = result.payload;
    } catch (error) {
      throw rejectedTokenError(error, token, base);
    }
    const clientId = claims.sub;
    // With the verified-token cache, a miss reads the credential itself: a copy from the short
    // credential cache could be older than the last revocation and would then be kept until expiry.
    const credential = !clientId
      ? undefined
      : deps.changes
        ? await credentials.find(clientId)
        : await credentials.findForAuth(clientId);
    if (!credential)
      throw new AppError('AUTHENTICATION_FAILURE', 'The credential of this token does not exist');
    if (credential.revokedAt) {
      throw new AppError('AUTHENTICATION_FAILURE', 'The credential of this token was revoked');
    }
    if (credential.environment !== base.environment) {
      throw new AppError(
        'AUTHENTICATION_FAILURE',
        `The credential of this token belongs to the ${credential.environment} environment, not ${base.environment}: request a token with a ${base.environment} credential`,
      );
    }
    const principal: Principal = {
      accountId: credential.accountId,
      environment: credential.environment,
      clientId: credential.clientId,
      scopes: typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [],
    };
    verified.set(base.url, token, principal, (claims.exp as number) * 1000, ticket);
    return principal;
  }

  /**
   * The principal of a token verified before and still kept (token-cache.ts), or undefined: then
   * `authenticate` decides. No I/O and no signature check, for the fast lane (http/fast-lane.ts).
   */
  function peek(authorization: string | undefined, base: Base): Principal | undefined {
    return lookUp(authorization, base, clock.now().getTime()).kept;
  }

  return { issue, authenticate, peek };
}

export type TokenService = ReturnType<typeof createTokenService>;

/** Which of the cases a request without a usable `Authorization` header is, said in the 401. */
function missingBearerMessage(authorization: string | undefined): string {
  if (!authorization) return 'No Authorization header: send `Authorization: Bearer <access_token>`';
  return 'The Authorization header is not `Bearer <access_token>`';
}

/**
 * The 401 for a token that did not verify, saying why: expired (and when), issued for another base
 * (naming it: jose checks the signature before the claims, so the audience read here is genuine), or
 * not a token of this server at all.
 *
 * @example
 * rejectedTokenError(new joseErrors.JWTExpired('...', payload), token, base) // TOKEN_EXPIRED
 */
function rejectedTokenError(error: unknown, token: string, base: Base): AppError {
  if (error instanceof joseErrors.JWTExpired) {
    const exp = typeof error.payload.exp === 'number' ? new Date(error.payload.exp * 1000) : null;
    return new AppError(
      'TOKEN_EXPIRED',
      exp ? `The access token expired at ${exp.toISOString()}; request a new one` : undefined,
    );
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') {
    const aud = decodeJwt(token).aud;
    const issuedFor = Array.isArray(aud) ? aud.join(', ') : String(aud);
    return new AppError(
      'AUTHENTICATION_FAILURE',
      `This token was issued for ${issuedFor}, not for ${base.url}: request a token with audience=${base.url}`,
    );
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.reason === 'missing') {
    return new AppError('AUTHENTICATION_FAILURE', `The token has no ${error.claim} claim`);
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AppError('AUTHENTICATION_FAILURE', `The token's ${error.claim} claim is not valid here`);
  }
  return new AppError(
    'AUTHENTICATION_FAILURE',
    'The token is not valid: it is malformed or its signature does not verify (not issued by this server)',
  );
}

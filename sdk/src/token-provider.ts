import type { Credentials } from './options.js';
import type { Authorizer, Transport } from './transport.js';

/** The token endpoint's answer (OAuth 2.0 client credentials). */
export interface TokenResponse {
  access_token: string;
  scope: string;
  expires_in: number;
  token_type: string;
}

/** The longest a token is refreshed ahead of its expiry; shorter tokens are refreshed 10% early. */
const EARLY_REFRESH_MS = 60_000;

/**
 * Fetches a token on first use from `{authUrl}/oauth/token`, keeps it, and fetches a new one once
 * it is within min(60 s, 10% of its lifetime) of expiring. Concurrent callers share one request.
 */
export class TokenProvider implements Authorizer {
  private current: { token: string; refreshAt: number; response: TokenResponse } | null = null;
  private pending: Promise<TokenResponse> | null = null;

  constructor(
    private readonly auth: Transport,
    private readonly credentials: Credentials,
    private readonly audience: string,
    private readonly now: () => number,
  ) {}

  async token(): Promise<string> {
    return (await this.response()).access_token;
  }

  /** The whole token answer (scope, lifetime), fetching one if none is fresh. */
  async response(): Promise<TokenResponse> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.response;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  private async fetchToken(): Promise<TokenResponse> {
    const requestedAt = this.now();
    const response = await this.auth.json<TokenResponse>({
      method: 'POST',
      path: '/oauth/token',
      body: {
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        grant_type: 'client_credentials',
        audience: this.audience,
      },
      retryable: true,
    });
    const lifetimeMs = Number(response.expires_in) * 1000;
    const early = Math.min(EARLY_REFRESH_MS, lifetimeMs / 10);
    this.current = { token: response.access_token, refreshAt: requestedAt + lifetimeMs - early, response };
    return response;
  }
}

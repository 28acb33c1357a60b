/**
 * The auth module: client credentials (ids, hashed secrets, scopes) and the OAuth 2.0 token
 * service that turns them into audience-bound JWTs and checks those tokens on every product request.
 */
export { hashClientSecret, newClientCredentials } from './client-secrets.ts';
export { type CredentialsRepository, credentialsRepository } from './credentials-repository.ts';
export type { Principal } from './principal.ts';
export { ALL_SCOPES, unknownScopes } from './scopes.ts';
export { TOKEN_API_DOCS } from './token-api-docs.ts';
export { tokenRoutes } from './token-route.ts';
export { createTokenService, type TokenGuard, type TokenService } from './token-service.ts';

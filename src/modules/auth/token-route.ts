import type { FastifyInstance } from 'fastify';
import type { TokenRequest, TokenService } from './token-service.ts';

/**
 * `POST {auth}/oauth/token`: client credentials by JSON or form body (RFC 6749 §4.4). Errors use the
 * OAuth body `{error, error_description}` (see OAuthError in the error handler), not the envelope.
 */
export function tokenRoutes(app: FastifyInstance, tokens: TokenService) {
  app.post('/oauth/token', { config: { access: { scope: null } } }, async (request, reply) => {
    const body = (request.body ?? {}) as TokenRequest;
    const answer = await tokens.issue(typeof body === 'object' ? body : {});
    reply.header('Cache-Control', 'no-store');
    return answer;
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { TokenGuard, TokenRequest, TokenService } from './token-service.ts';

/**
 * `POST {auth}/oauth/token`: client credentials by JSON or form body (RFC 6749 §4.4). Errors use the
 * OAuth body `{error, error_description}` (`errors/oauth-error.ts`, answered by the error handler),
 * not the envelope. `guardOf` gives each request its rate limits (http/rate-limit.ts `tokenGuards`).
 */
export function tokenRoutes(
  app: FastifyInstance,
  tokens: TokenService,
  guardOf?: (ip: string, reply: FastifyReply) => TokenGuard,
) {
  const Token = Type.Object({
    access_token: Type.String(),
    scope: Type.String({ description: 'Space-separated scopes of this product' }),
    expires_in: Type.Integer({ description: 'Lifetime in seconds' }),
    token_type: Type.Literal('Bearer'),
  });
  app.post(
    '/oauth/token',
    { schema: { response: { 200: Token } }, config: { access: { scope: null } } },
    async (request, reply) => {
      const body = (request.body ?? {}) as TokenRequest;
      const answer = await tokens.issue(
        typeof body === 'object' ? body : {},
        guardOf?.(request.ip, reply),
        // the caller proved its secret: the request goes to its account's request log
        (caller) => {
          request.principal = caller;
        },
      );
      reply.header('Cache-Control', 'no-store');
      return answer;
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/error-codes.ts';
import type { TokenService } from '../modules/auth/index.ts';
import type { RouteAccess } from './request-context.ts';

/**
 * Authentication and scope checks for a product base's routes. Each route declares the scope it needs
 * in `config.access.scope` (the one visible place); a route that declares nothing needs
 * `defaultScope`. A token for another base is a 401, a missing scope a 403 NOT_AUTHORIZED.
 */
export function installAuthHook(app: FastifyInstance, tokens: TokenService, defaultScope: string) {
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access?.scope === null) return;
    if (!request.base) throw new AppError('RESOURCE_NOT_FOUND');
    const principal = await tokens.authenticate(request.headers.authorization, request.base);
    // known from here on, a refusal for a missing scope included (the account's request log shows it)
    request.principal = principal;
    const scope = requiredScope(access, defaultScope);
    if (!principal.scopes.includes(scope)) {
      throw new AppError('NOT_AUTHORIZED', `This endpoint needs the scope "${scope}"`, [
        { field: 'scope', issue: `missing ${scope}` },
      ]);
    }
  });
}

/** The scope a route needs: its own `config.access.scope`, else the base's default. */
export function requiredScope(access: RouteAccess | undefined, defaultScope: string): string {
  return access?.scope ?? defaultScope;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors/error-codes.ts';
import { permissionsOf } from '../permissions.ts';
import type { WebUserRow } from './users-repository.ts';
import { type SignedIn, sameToken, type UsersService } from './users-service.ts';
import type { WebUserKind } from './web-tables.ts';

/**
 * Sessions of the web pages (dashboard and console). The cookie (Secure, HttpOnly, SameSite=Lax,
 * limited to the page's path) holds a random token; the server keeps only its SHA-256. Every route
 * needs a session except those declaring `access.scope: null` (sign-in, accepting an invitation) and
 * the static files (`access.docs`). Every request other than GET/HEAD must also carry the session's
 * CSRF token in `X-CSRF-Token` (a synchronizer token the page reads from `GET /api/session`); the
 * public mutations instead refuse a request another site's page sends (Origin / Sec-Fetch-Site).
 *
 * Roles (issue 28): every route behind the session declares the permission it needs
 * (`config.permission`, modules/web/permissions.ts); a route without one stops the server at start.
 * A signed-in user whose role lacks it is refused with 403 ROLE_NOT_ALLOWED before the handler runs
 * (so nothing changes and no audit line is written). The role is read with the session on every
 * request: a changed role or a removed user takes effect at once.
 */
export interface WebSessionOptions {
  kind: WebUserKind;
  users: UsersService;
  cookieName: string;
  /** The page's public path ('/dashboard'); the cookie is sent for it only. */
  cookiePath: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    webUser: (WebUserRow & { csrfToken: string }) | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A request a page of another site sent (the browser tells by Sec-Fetch-Site, or by Origin). */
function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export function installWebSession(app: FastifyInstance, o: WebSessionOptions) {
  app.decorateRequest('webUser', null);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as {
      access?: { scope?: unknown; docs?: boolean };
      permission?: string;
    };
    if (config.access?.docs || config.access?.scope === null) return;
    if (!config.permission) {
      throw new Error(
        `${route.method} ${route.url}: a ${o.kind === 'customer' ? 'dashboard' : 'console'} route must declare config.permission (modules/web/permissions.ts)`,
      );
    }
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    const mutation = !SAFE_METHODS.has(request.method);
    if (access?.docs) return;
    if (access?.scope === null) {
      if (mutation && crossSite(request)) throw new AppError('NOT_AUTHORIZED', 'Cross-site request refused');
      return;
    }
    const token = readCookie(request.headers.cookie, o.cookieName);
    const found = token === undefined ? undefined : await o.users.session(o.kind, token);
    if (!found) throw new AppError('AUTHENTICATION_FAILURE', 'Sign in first (no session, or it has expired)');
    if (mutation) {
      const given = request.headers['x-csrf-token'];
      if (!sameToken(Array.isArray(given) ? given[0] : given, found.csrfToken)) {
        throw new AppError('NOT_AUTHORIZED', 'Missing or wrong X-CSRF-Token header');
      }
    }
    request.webUser = found;
    // an unknown path goes on to its 404 (or 405)
    if (request.is404) return;
    const needed = request.routeOptions.config.permission;
    if (!needed || !permissionsOf(o.kind, found.role).includes(needed)) {
      throw new AppError(
        'ROLE_NOT_ALLOWED',
        `Your role (${found.role}) does not allow this: it takes the ${needed} permission`,
      );
    }
  });
}

/** The signed-in user of a route behind `installWebSession`. */
export function webUserOf(request: FastifyRequest): WebUserRow & { csrfToken: string } {
  if (!request.webUser) throw new Error('route used without the web session hook');
  return request.webUser;
}

export function setSessionCookie(reply: FastifyReply, o: WebSessionOptions, signedIn: SignedIn) {
  reply.header(
    'set-cookie',
    `${o.cookieName}=${signedIn.token}; Path=${o.cookiePath || '/'}; Expires=${signedIn.expiresAt.toUTCString()}; Secure; HttpOnly; SameSite=Lax`,
  );
}

export function clearSessionCookie(reply: FastifyReply, o: WebSessionOptions) {
  reply.header(
    'set-cookie',
    `${o.cookieName}=; Path=${o.cookiePath || '/'}; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; HttpOnly; SameSite=Lax`,
  );
}

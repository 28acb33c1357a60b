import { newRequestId } from '../lib/ids.ts';
import type { Principal } from '../modules/auth/index.ts';
import type { Base } from './bases.ts';

/** A request id the client may choose (`X-Request-Id`), else a new one. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
}

/**
 * What the transport layer learns about a request before a handler runs: which base it came in
 * through and, on product bases, who is calling (the `Principal` of `modules/auth`).
 */
/** Per-route declarations read by the hooks: the one visible place a route says what it needs. */
export interface RouteAccess {
  /** Scope the token must carry; `null` for public routes (the token endpoint, docs). */
  scope?: string | null;
  /** Docs pages answer HTML whatever the product's media type: no Accept check, no token. */
  docs?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    base: Base | null;
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/** The principal of an authenticated route; the auth hook guarantees it is set. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route used without the auth hook');
  return request.principal;
}

/** The URL of the base a request came in through (top-ups' `links` name it); '' off any base. */
export function baseUrlOf(request: { base: Base | null }): string {
  return request.base?.url ?? '';
}

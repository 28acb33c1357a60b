import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/error-codes.ts';
import { SHARED_MOUNT } from './bases.ts';
import { checkAccept } from './media-types.ts';
import { PROBE_PATHS } from './probes.ts';

/** The probes carry no data and answer plain HTTP too, for a kubelet probing a TLS=off pod. */
const PROBE_ROUTES = new Set(PROBE_PATHS.map((p) => `${SHARED_MOUNT}${p}`));

/**
 * The first checks of every request, in the first `onRequest` hook (after routing, so a check can read
 * the route: the probes are exempt from HTTPS): HTTPS only (decisions §1), no NUL in the URL, and the
 * Accept header on product bases. A plain-HTTP request reaches this hook through the listener's sniffing (or via a
 * proxy that is not trusted) and is refused with the envelope, whatever its path.
 */
export function installTransportHooks(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (request.protocol !== 'https' && !PROBE_ROUTES.has(request.routeOptions.url ?? '')) {
      const path = request.originalUrl ?? request.url;
      throw new AppError(
        'INVALID_REQUEST',
        `airgift is served over HTTPS only: call https://${request.headers.host ?? 'its host'}${path}`,
        [{ field: 'protocol', issue: 'plain HTTP is not served' }],
      );
    }
    // PostgreSQL text cannot hold a NUL character: refuse it here, for every query and path, rather
    // than let it reach a query as a 500. (JSON bodies: see the parser in app.ts.)
    if (/%00/.test(request.url)) {
      throw new AppError('INVALID_REQUEST', 'The request contains a NUL character', [
        { field: 'url', issue: 'contains %00' },
      ]);
    }
    const base = request.base;
    if (
      base &&
      (base.kind === 'giftcards' || base.kind === 'topups') &&
      !request.routeOptions.config.access?.docs
    ) {
      checkAccept(request.headers.accept, base.kind);
    }
  });
}

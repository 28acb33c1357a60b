import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/error-codes.ts';

/**
 * The admin API is the operator's: one key (ADMIN_KEY, or generated into the data directory on
 * first start), sent as `Authorization: Bearer <key>` or `X-Admin-Key: <key>`. Compared in
 * constant time over hashes so neither content nor length leaks.
 */
export function installAdminAuth(app: FastifyInstance, adminKey: string) {
  const expected = createHash('sha256').update(adminKey).digest();
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.docs) return;
    const header = request.headers['x-admin-key'];
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const given = (Array.isArray(header) ? header[0] : header) ?? bearer;
    const ok = given !== undefined && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    if (!ok) throw new AppError('AUTHENTICATION_FAILURE', 'A valid admin key is required');
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ChangeVersions, ClearableCache } from '../lib/change-versions.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * Catalog answers prepared once. A GET route that declares `config: { cache: true }` answers from
 * memory the bytes it answered before for the same base, URL and caller profile (`vary`: the account's
 * currency and country, which is all that prices and discounts depend on), after the token and scope
 * checks and before anything else runs. What is kept is dropped:
 *
 * - on every change of the catalog or FX table (topic `catalog` of ChangeVersions), in this process at
 *   once and in the other servers of the deployment within a second;
 * - `maxAgeMs` after it was made (by the application clock), so answers that depend on the time
 *   (current promotions) move on;
 * - whenever the change poller is not fresh (nothing is served from memory then).
 *
 * Only 200 answers are kept; an answer made across a change is served but not kept.
 *
 * @example
 * app.get('/products/:id', { schema, config: { cache: true } }, handler);
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET whose answer depends only on the base, the URL and the caller's currency and country. */
    cache?: boolean;
  }
}

export interface ResponseCacheOptions {
  changes: ChangeVersions;
  clock: Clock;
  /** The caller's profile the answers depend on (say `USD/US`); runs after the auth hook. */
  vary(request: FastifyRequest): Promise<string> | string;
  maxAgeMs?: number;
  maxBytes?: number;
}

interface Kept {
  body: Buffer;
  contentType: string;
  madeAt: number;
}

const PENDING = Symbol('response-cache');

export function installResponseCache(app: FastifyInstance, o: ResponseCacheOptions) {
  const maxAgeMs = o.maxAgeMs ?? 1000;
  const maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
  const kept = new ClearableCache<Kept>(20_000);
  let bytes = 0;
  const clear = () => {
    kept.clear();
    bytes = 0;
  };
  o.changes.onChange('catalog', clear);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || request.routeOptions.config.cache !== true) return;
    if (!o.changes.fresh()) return;
    const key = `${request.base?.url} ${await o.vary(request)} ${request.url}`;
    const hit = kept.get(key);
    const now = o.clock.now().getTime();
    if (hit && now - hit.madeAt >= 0 && now - hit.madeAt < maxAgeMs) {
      reply.header('content-type', hit.contentType);
      return reply.send(hit.body);
    }
    (request as { [PENDING]?: unknown })[PENDING] = { key, ticket: kept.ticket(), madeAt: now };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const pending = (request as { [PENDING]?: { key: string; ticket: number; madeAt: number } })[PENDING];
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const body = Buffer.from(payload);
    if (bytes + body.length > maxBytes) clear();
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    kept.set(pending.key, { body, contentType, madeAt: pending.madeAt }, pending.ticket);
    bytes += body.length;
    return payload;
  });
}

/**
 * Admin writes that change what product bases answer (FX rates, the catalog) announce it: this
 * process's caches drop at once, the other servers' within a second. Account and credential changes
 * are announced by the accounts service itself.
 */
export function installChangeAnnouncer(admin: FastifyInstance, changes: ChangeVersions) {
  admin.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return payload;
    const url = request.routeOptions.url ?? '';
    if (!/\/(accounts|credentials)\b/.test(url)) await changes.changed('catalog');
    return payload;
  });
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RateLimiter, RateLimitRule } from '../lib/rate-limiter.ts';
import type { TokenService } from '../modules/auth/index.ts';
import type { AccessLog } from './access-log.ts';
import type { ApiRequestSink } from './api-request-log.ts';
import type { BaseRouter } from './bases.ts';
import { acceptable } from './media-types.ts';
import { accountLimitKey, headersOf } from './rate-limit.ts';
import { requestIdFor } from './request-context.ts';
import type { KeptAnswer, KeptAnswers } from './response-cache.ts';

/**
 * The fast lane: a GET whose answer is kept (response-cache.ts: the catalogue, the balance) is
 * answered from memory before Fastify parses, routes or runs a hook. Fastify's pipeline costs
 * ~50–100 µs of CPU per request here (hooks, promises, the reply object, headers); a kept answer
 * needs a few Map look-ups. Measured with wrk on 2 cores: bench/README.md.
 *
 * The lane answers only when every check Fastify would make passes, and with the same bytes:
 * - the request came over TLS on this server's own socket (no proxy headers to interpret);
 * - the token was verified before and is still kept (token-cache.ts: a revocation or deactivation
 *   empties it in this process at once, in the others within a second), for this very base;
 * - the Accept header allows JSON or the product's media type;
 * - the kept answer may still be served (catalogue unchanged, or the balance at the same version);
 * - the token carries the scope of the route that made the answer;
 * - the account's rate limit, counted in this process, allows one more request (a refusal, and a
 *   limiter shared through Redis, go the whole way so the 429 is answered by the usual code).
 * Anything else (a first request, an expired token, a bad header) takes the usual path and gets the
 * usual answer. The answer carries the headers the kept one was sent with, plus this request's id
 * and rate-limit headers; the request is counted in /metrics, given to its account's request log
 * (api-request-log.ts) and gets its access line (access-log.ts) like any other.
 */
export interface FastLaneDeps {
  bases: BaseRouter;
  tokens: Pick<TokenService, 'peek'>;
  answers: KeptAnswers;
  limiter?: RateLimiter;
  /** The account limit of product bases (null: not limited). */
  limit: RateLimitRule | null;
  metrics: {
    observe(method: string, route: string, status: number, seconds: number): void;
    fastLaneAnswer(): void;
  };
  /** The accounts' API request log (modules/request-log): an entry per answer, kept in memory. */
  requestLog?: ApiRequestSink;
  /** The time the request log records (the services' clock), ms. */
  now?: () => number;
  /** The access log (access-log.ts): one line per answer, as for the answers Fastify sends. */
  accessLog: AccessLog | null;
  /** With trusted proxies, a request carrying X-Forwarded-* headers is left to Fastify to interpret. */
  trustProxy: boolean;
}

export type FastLane = (req: IncomingMessage, res: ServerResponse) => boolean;

const KINDS = [true, 'balance'] as const;

export function createFastLane(d: FastLaneDeps): FastLane {
  return (req, res) => {
    if (req.method !== 'GET' || !(req.socket as TLSSocket).encrypted) return false;
    const headers = req.headers;
    if (
      d.trustProxy &&
      (headers['x-forwarded-for'] || headers['x-forwarded-proto'] || headers['x-forwarded-host'])
    )
      return false;
    const started = performance.now();
    const { base, url } = d.bases.rewrite(headers.host, req.url ?? '/');
    if (!base || (base.kind !== 'giftcards' && base.kind !== 'topups')) return false;
    const principal = d.tokens.peek(headers.authorization, base);
    if (!principal || !acceptable(headers.accept, base.kind)) return false;
    let hit: KeptAnswer | undefined;
    for (const kind of KINDS) {
      const key = d.answers.keyOf(kind, base, url, principal);
      hit = key === undefined ? undefined : d.answers.find(key, kind, principal);
      if (hit) break;
    }
    if (!hit || !principal.scopes.includes(hit.scope)) return false;
    let limited: Record<string, string> | null = null;
    if (d.limit) {
      const decision = d.limiter?.hitIfAllowed?.(accountLimitKey(principal), d.limit);
      if (!decision) return false;
      limited = headersOf(decision);
    }

    const reqId = requestIdFor(headers['x-request-id']);
    res.writeHead(200, {
      'x-request-id': reqId,
      ...limited,
      ...hit.headers,
      'content-length': String(hit.body.length),
    });
    res.end(hit.body);
    const seconds = (performance.now() - started) / 1000;
    d.metrics.observe('GET', hit.route, 200, seconds);
    d.metrics.fastLaneAnswer();
    d.requestLog?.add({
      at: (d.now?.() ?? Date.now()) - seconds * 1000,
      accountId: principal.accountId,
      environment: principal.environment,
      product: base.kind,
      clientId: principal.clientId,
      method: 'GET',
      path: req.url ?? url,
      status: 200,
      latencyMs: seconds * 1000,
      requestId: reqId,
    });
    if (d.accessLog?.enabled()) {
      d.accessLog.write({
        reqId,
        method: 'GET',
        url: req.url ?? url,
        host: headers.host,
        statusCode: 200,
        ms: seconds * 1000,
        remoteAddress: req.socket.remoteAddress,
        accountId: principal.accountId,
        clientId: principal.clientId,
      });
    }
    return true;
  };
}

/** Puts the lane in front of the server's request handler (Fastify's), which gets what it declines. */
export function installFastLane(server: Server, lane: FastLane) {
  const [handler] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (!handler) throw new Error('installFastLane: the server has no request handler yet');
  server.removeListener('request', handler);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!lane(req, res)) handler(req, res);
  });
}

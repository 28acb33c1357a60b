import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ChangeVersions, ClearableCache } from '../lib/change-versions.ts';
import type { Clock } from '../lib/clock.ts';
import type { Principal } from '../modules/auth/index.ts';
import { requiredScope } from './auth-hook.ts';
import type { Base } from './bases.ts';

/**
 * Answers prepared once. A GET route that declares `config: { cache: ... }` answers from memory the
 * bytes (and headers) it answered before for the same base, URL and caller, after the token and scope
 * checks and before anything else runs. Two kinds:
 *
 * - `cache: true`, the catalogue: the answer depends only on the base, the URL and the caller's
 *   profile (the account's currency and country, all that prices and discounts depend on). It is
 *   dropped on every change of the catalogue or FX table (topic `catalog` of ChangeVersions), in this
 *   process at once and in the other servers within a second; `maxAgeMs` after it was made (answers
 *   that depend on the time, current promotions, move on); and nothing is served while the change
 *   poller is not fresh.
 * - `cache: 'balance'`, the balance read: the answer depends on the caller's balance only. It is kept
 *   with the version of the balance it shows and served only while the ledger's balance cache still
 *   trusts that very version (ledger/balance-cache.ts: read-your-writes in this process, others'
 *   writes within a second); any write makes it stale at once.
 *
 * Only 200 answers are kept, and an answer made across a change is served but not kept. The same
 * kept answers are what the fast lane (fast-lane.ts) answers before Fastify runs at all.
 *
 * @example
 * app.get('/products/:id', { schema, config: { cache: true } }, handler);
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET whose answer depends only on the base, the URL and the caller (see above). */
    cache?: true | 'balance';
  }
}

export interface KeptAnswer {
  body: Buffer;
  /** The headers the answer was sent with, less those made per request (request id, rate limit, length). */
  headers: Record<string, string>;
  madeAt: number;
  /** For `cache: 'balance'`: the balance version the body shows. */
  version: number | null;
  /** The route pattern (metrics label) and the scope a token needs for it. */
  route: string;
  scope: string;
}

export interface KeptAnswersOptions {
  changes: ChangeVersions;
  clock: Clock;
  /** The caller's profile catalogue answers depend on (say `USD/US`), when known without I/O. */
  profileOf(principal: Principal): string | undefined;
  /** Brings what `profileOf` needs into memory (the account), for the next request to find it. */
  loadProfile(principal: Principal): Promise<unknown>;
  /** The version of the caller's balance this process trusts now, or undefined (read the database). */
  balanceVersionOf(principal: Principal): number | undefined;
  maxAgeMs?: number;
  maxBytes?: number;
}

/** Headers made per request: never replayed from a kept answer. */
const PER_REQUEST_HEADER =
  /^(x-request-id|ratelimit-|retry-after$|content-length$|date$|connection$|keep-alive$)/i;

/** The store of kept answers, shared by the Fastify hooks below and the fast lane. */
export function createKeptAnswers(o: KeptAnswersOptions) {
  const maxAgeMs = o.maxAgeMs ?? 1000;
  const maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
  const kept = new ClearableCache<KeptAnswer>(20_000);
  let bytes = 0;
  const clear = () => {
    kept.clear();
    bytes = 0;
  };
  o.changes.onChange('catalog', clear);

  /** What the answer to this caller depends on besides the URL, or undefined: not servable from memory. */
  function callerKey(kind: true | 'balance', principal: Principal): string | undefined {
    if (kind === 'balance') return `balance ${principal.accountId}/${principal.environment}`;
    return o.profileOf(principal);
  }

  return {
    loadProfile: o.loadProfile,
    keyOf(kind: true | 'balance', base: Base, url: string, principal: Principal): string | undefined {
      const caller = callerKey(kind, principal);
      return caller === undefined ? undefined : `${base.url} ${caller} ${url}`;
    },

    /** The kept answer for `key`, if it may still be served to this caller now. */
    find(key: string, kind: true | 'balance', principal: Principal): KeptAnswer | undefined {
      if (!o.changes.fresh()) return undefined;
      const hit = kept.get(key);
      if (!hit) return undefined;
      if (kind === 'balance') return hit.version === o.balanceVersionOf(principal) ? hit : undefined;
      const age = o.clock.now().getTime() - hit.madeAt;
      return age >= 0 && age < maxAgeMs ? hit : undefined;
    },

    /** Taken before the answer is made; `keep` keeps it only if nothing changed meanwhile. */
    ticket(kind: true | 'balance', principal: Principal) {
      return {
        ticket: kept.ticket(),
        madeAt: o.clock.now().getTime(),
        version: kind === 'balance' ? (o.balanceVersionOf(principal) ?? null) : null,
      };
    },

    keep(
      key: string,
      made: { ticket: number; madeAt: number; version: number | null },
      answer: { kind: true | 'balance'; principal: Principal; body: Buffer; headers: Record<string, string> },
      route: { url: string; scope: string },
    ) {
      if (answer.kind === 'balance') {
        // The body shows the version trusted before and after it was made, or it is not kept.
        const now = o.balanceVersionOf(answer.principal);
        if (made.version === null || now !== made.version) return;
      }
      if (bytes + answer.body.length > maxBytes) clear();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!PER_REQUEST_HEADER.test(name)) headers[name] = value;
      }
      kept.set(
        key,
        {
          body: answer.body,
          headers,
          madeAt: made.madeAt,
          version: made.version,
          route: route.url,
          scope: route.scope,
        },
        made.ticket,
      );
      bytes += answer.body.length;
    },
  };
}

export type KeptAnswers = ReturnType<typeof createKeptAnswers>;

interface Pending {
  key: string;
  kind: true | 'balance';
  made: { ticket: number; madeAt: number; version: number | null };
}

const PENDING = Symbol('response-cache');

/**
 * The hooks of a product base: after the auth hook, answer a kept answer; after a handler, keep
 * its 200 answer. `defaultScope` is the scope of a route that declares none (as the auth hook).
 */
export function installResponseCache(app: FastifyInstance, answers: KeptAnswers, defaultScope: string) {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const kind = request.routeOptions.config.cache;
    if (request.method !== 'GET' || !kind || !request.base || !request.principal) return;
    let key = answers.keyOf(kind, request.base, request.url, request.principal);
    if (key === undefined && kind === true) {
      await answers.loadProfile(request.principal);
      key = answers.keyOf(kind, request.base, request.url, request.principal);
    }
    if (key === undefined) return;
    const hit = answers.find(key, kind, request.principal);
    if (hit) {
      reply.headers(hit.headers);
      return reply.send(hit.body);
    }
    (request as { [PENDING]?: Pending })[PENDING] = {
      key,
      kind,
      made: answers.ticket(kind, request.principal),
    };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const pending = (request as { [PENDING]?: Pending })[PENDING];
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string' || !request.principal)
      return payload;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
    }
    answers.keep(
      pending.key,
      pending.made,
      { kind: pending.kind, principal: request.principal, body: Buffer.from(payload), headers },
      {
        url: request.routeOptions.url ?? '',
        scope: requiredScope(request.routeOptions.config.access, defaultScope),
      },
    );
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

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditActor, AuditLine, AuditLog } from './audit-log.ts';
import type { AuditChannel } from './audit-tables.ts';

/**
 * The one place each channel writes its audit lines: a hook on the channel's routes (the admin base,
 * the console, the dashboard) that writes one line for every request other than GET/HEAD/OPTIONS that
 * succeeded (2xx), before its answer leaves. No handler records anything, so no route, a new one
 * included, can be forgotten. A route describes its line in `config.audit`; a route without one is
 * still recorded, under `METHOD /path/:param` with its path parameters as the target (the audit
 * suites refuse such a route, so that it gets a name). There is no way to leave a route out.
 *
 * What is stored is masked (lib/log-redaction.ts): secrets, tokens, one-time links, codes and PINs
 * never reach the table, whatever a body or an answer holds.
 *
 * @example
 * app.post('/accounts/:accountId/fund', {
 *   schema,
 *   config: { audit: { action: 'account.fund', target: (r) => `account ${params(r).accountId}` } },
 * }, handler);
 */
/** A JSON answer as parsed (null when the answer was not a JSON object). */
export type AuditAnswer = { readonly [field: string]: unknown } | null;

export interface AuditDescription {
  /** what was done: `account.fund`, `credential.revoke` (or one named from the request: `account.inactive`) */
  action: string | ((request: FastifyRequest) => string);
  /** on what, from the request and the answer (default: the path parameters, `productId 1840`) */
  target?: (request: FastifyRequest, answer: AuditAnswer) => string | null;
  /** the account concerned (default: the `accountId` path parameter, body field or answer field) */
  accountId?: (request: FastifyRequest, answer: AuditAnswer) => number | null;
  /** the state before the change, read before the handler runs (a failed read records none) */
  before?: (request: FastifyRequest) => Promise<unknown>;
  /** the state after, from the answer (default: the answer itself, masked); null: none */
  after?: ((answer: AuditAnswer, request: FastifyRequest) => unknown) | null;
  /** what was asked (default: the body, and the query when it has one, masked) */
  details?: (request: FastifyRequest) => unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's audit line (modules/audit/audit-hook.ts). */
    audit?: AuditDescription;
  }
  interface FastifyRequest {
    auditBefore?: unknown;
  }
}

export interface AuditChannelOptions {
  channel: AuditChannel;
  audit: Pick<AuditLog, 'record'>;
  /** Who made the request; null when nobody can be named (then no line: nothing was changed by anyone). */
  actorOf(request: FastifyRequest, answer: AuditAnswer): AuditActor | null | Promise<AuditActor | null>;
  /** The account every change of this channel concerns (the dashboard: the signed-in user's). */
  accountOf?(request: FastifyRequest): number | null;
  /** Told when a line could not be written (the answer still goes out: the change is made). */
  onError?(error: unknown, line: AuditLine): void;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The route pattern as published: `/accounts/:accountId/fund` (the internal mount `/_admin` left out). */
export function routeOf(request: FastifyRequest): string {
  return (request.routeOptions.url ?? request.url).replace(/^\/_[a-z]+(?=\/|$)/, '') || '/';
}

/** A request as the descriptions read it. */
export type AuditedRequest = FastifyRequest;

/** The path parameters of a validated request, as its schema typed them. */
export function params<T = Record<string, string | number>>(request: FastifyRequest): T {
  return (request.params ?? {}) as T;
}

function defaultTarget(request: FastifyRequest): string | null {
  const entries = Object.entries(params(request));
  return entries.length === 0 ? null : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}

function defaultAccount(request: FastifyRequest, answer: unknown): number | null {
  for (const from of [params(request), request.body, answer]) {
    const id = Number((from as { accountId?: unknown } | null)?.accountId);
    if (Number.isInteger(id) && id > 0) return id;
  }
  return null;
}

function defaultDetails(request: FastifyRequest): unknown {
  const body = request.body ?? {};
  const query = request.query as Record<string, unknown> | undefined;
  const asked = typeof body === 'object' && !Array.isArray(body) ? { ...(body as object) } : { body };
  return query && Object.keys(query).length > 0 ? { ...asked, query } : asked;
}

function answerOf(payload: unknown, reply: FastifyReply): AuditAnswer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  if (!/json/i.test(String(reply.getHeader('content-type') ?? ''))) return null;
  try {
    const answer: unknown = JSON.parse(payload.toString());
    return answer !== null && typeof answer === 'object' ? (answer as AuditAnswer) : null;
  } catch {
    return null;
  }
}

export function installAuditHook(app: FastifyInstance, o: AuditChannelOptions) {
  app.addHook('preHandler', async (request) => {
    const description = request.routeOptions.config.audit;
    if (READS.has(request.method) || !description?.before) return;
    request.auditBefore = await description.before(request).catch(() => null);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (READS.has(request.method) || reply.statusCode < 200 || reply.statusCode > 299) return payload;
    const description = request.routeOptions.config.audit;
    const answer = answerOf(payload, reply);
    const actor = await o.actorOf(request, answer);
    if (!actor) return payload;
    const line: AuditLine = {
      channel: o.channel,
      actor,
      action:
        typeof description?.action === 'function'
          ? description.action(request)
          : (description?.action ?? `${request.method} ${routeOf(request)}`),
      target: description?.target ? description.target(request, answer) : defaultTarget(request),
      accountId:
        o.accountOf?.(request) ??
        (description?.accountId ? description.accountId(request, answer) : defaultAccount(request, answer)),
      details: description?.details ? description.details(request) : defaultDetails(request),
      before: request.auditBefore ?? null,
      after:
        description?.after === null ? null : description?.after ? description.after(answer, request) : answer,
      ip: request.ip,
      requestId: request.id,
    };
    try {
      await o.audit.record(line);
    } catch (error) {
      o.onError?.(error, line);
    }
    return payload;
  });
}

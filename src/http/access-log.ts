import { hostname } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

/**
 * The access log: ONE line per answered request, written when the answer has been sent, at level
 * info, shaped like every other log line (pino's `level`, `time`, `pid`, `hostname`, `msg`):
 *
 *   {"level":30,"time":1764150000000,"pid":4242,"hostname":"srv1","reqId":"req_…","method":"GET",
 *    "url":"/giftcards-sandbox/products/1840","host":"giftcards.example.com","statusCode":200,
 *    "responseTime":0.412,"remoteAddress":"203.0.113.7","accountId":1,"clientId":"…",
 *    "msg":"request completed"}
 *
 * `url` is the URL as the client sent it (the public path, not the internal mount), `responseTime`
 * milliseconds; `accountId` and `clientId` only when a token named the caller. The line is built
 * here as a string (no pino call, no object to serialise, no redaction paths to walk: Fastify's two
 * lines per request, "incoming request" and "request completed", cost a catalog read 47% of its
 * throughput, bench/README.md), and the fields a client chose (url, host, request id) pass through
 * the same masker as every other log line (lib/log-redaction.ts) before it is handed to the log
 * destination (lib/log-destination.ts: asynchronous, flushed at exit).
 *
 * @example
 * const access = createAccessLog({ write: (l) => logs.write(l), mask, enabled: () => true });
 * access.write({ reqId: 'req_1', method: 'GET', url: '/x', host: 'h', statusCode: 200, ms: 0.4 });
 */
export interface AccessLine {
  reqId: string;
  method: string;
  /** As the client sent it; masked here. */
  url: string;
  host: string | undefined;
  statusCode: number;
  /** Milliseconds from the request's arrival to the answer's end. */
  ms: number;
  remoteAddress?: string | undefined;
  accountId?: number | undefined;
  clientId?: string | undefined;
}

export interface AccessLog {
  /** False while the logger is above `info` (the line is not even built then). */
  enabled(): boolean;
  write(line: AccessLine): void;
}

export interface AccessLogOptions {
  /** The log destination (one JSON line, newline included, per call). */
  write(line: string): void;
  /** The masker of every log line (lib/log-redaction.ts `logLineMasker`). */
  mask(text: string): string;
  /** Whether the logger logs `info` now. */
  enabled(): boolean;
}

export function createAccessLog(o: AccessLogOptions): AccessLog {
  // pino's base fields, in pino's order.
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const text = (value: string | undefined) => (value === undefined ? '""' : JSON.stringify(o.mask(value)));
  return {
    enabled: o.enabled,
    write(l) {
      let line = `{"level":30,"time":${Date.now()}${base},"reqId":${text(l.reqId)},"method":${JSON.stringify(l.method)},"url":${text(l.url)},"host":${text(l.host)},"statusCode":${l.statusCode},"responseTime":${Math.round(l.ms * 1000) / 1000}`;
      if (l.remoteAddress !== undefined) line += `,"remoteAddress":${JSON.stringify(l.remoteAddress)}`;
      if (l.accountId !== undefined) line += `,"accountId":${l.accountId}`;
      if (l.clientId !== undefined) line += `,"clientId":${JSON.stringify(l.clientId)}`;
      o.write(`${line},"msg":"request completed"}\n`);
    },
  };
}

/**
 * Fastify's request logging replaced by the access line: no "incoming request" line, and at the end
 * of each answer (after its onResponse hooks) the one access line instead of Fastify's "request
 * completed". Everything else Fastify logs per request is unchanged: the 5xx its default error
 * handler logs, an answer stream that failed ("request errored", level error, with the error), a
 * stream closed early. Without an access log (LOG_LEVEL=silent, the in-process test server) requests
 * are not logged at all.
 */
export class AccessLogController extends LogController {
  readonly #access: AccessLog | null;

  constructor(access: AccessLog | null) {
    super();
    this.#access = access;
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const access = this.#access;
    if (access?.enabled()) {
      const principal = request.principal;
      access.write({
        reqId: request.id,
        method: request.method,
        url: request.originalUrl ?? request.url,
        host: request.host,
        statusCode: reply.statusCode,
        ms: reply.elapsedTime,
        remoteAddress: request.ip,
        accountId: principal?.accountId,
        clientId: principal?.clientId,
      });
    }
    if (error)
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
  }
}

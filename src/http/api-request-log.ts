import type { FastifyInstance } from 'fastify';
import type { Environment } from '../db/schema.ts';

/**
 * What the API request log (modules/request-log) hears of each product-API request whose caller is
 * known: a token's account on the gift card and top-up bases, and on the token endpoint the client
 * once its secret was proven. The request path only hands an entry to a sink that keeps it in memory
 * (`add` never waits and never throws, no I/O): a success as its masked line, a failure as it came
 * (its bodies are masked when written); writing happens later, in batches, off the request path. The
 * fast lane (fast-lane.ts) hands its answers to the same sink.
 *
 * @example
 * installApiRequestLog(productApp, requestLog.sink, () => clock.now().getTime());
 */
export interface ApiRequestEntry {
  /** when the request came in, ms since 1970 */
  at: number;
  accountId: number;
  environment: Environment;
  product: 'giftcards' | 'topups' | 'auth';
  clientId: string;
  method: string;
  /** the URL as the client sent it (masked when kept) */
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  /** a successful request of a route that creates a transaction (`config.createsTransaction`): its id */
  transactionId?: number;
  /** failed requests only: the parsed body and the answer, masked when written */
  requestBody?: unknown;
  responseBody?: string;
}

export interface ApiRequestSink {
  add(entry: ApiRequestEntry): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the answer of a failed request, kept for its request log line */
    failedAnswer?: string;
    /** the transaction a successful order request created, read from its answer */
    createdTransaction?: number;
  }
  interface FastifyContextConfig {
    /** The route creates a transaction whose id its answer's `transactionId` names (POST /orders, /topups). */
    createsTransaction?: boolean;
  }
}

/** The answer's first `transactionId` (an order answer names its own first). */
const TRANSACTION_ID = /"transactionId":(\d{1,15})[,}]/;

/** Logs every answered request of the app's routes (a product base, the token endpoint) with a known caller. */
export function installApiRequestLog(app: FastifyInstance, sink: ApiRequestSink, now: () => number) {
  // Callback hooks, not async ones: these run on every request of the order path.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && request.principal && typeof payload === 'string') {
      request.failedAnswer = payload;
    } else if (request.routeOptions.config.createsTransaction && typeof payload === 'string') {
      const id = TRANSACTION_ID.exec(payload);
      if (id) request.createdTransaction = Number(id[1]);
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const principal = request.principal;
    const kind = request.base?.kind;
    if (principal && (kind === 'giftcards' || kind === 'topups' || kind === 'auth')) {
      const failed = reply.statusCode >= 400;
      const latencyMs = reply.elapsedTime;
      sink.add({
        at: now() - latencyMs,
        accountId: principal.accountId,
        environment: principal.environment,
        product: kind,
        clientId: principal.clientId,
        method: request.method,
        path: request.originalUrl ?? request.url,
        status: reply.statusCode,
        latencyMs,
        requestId: request.id,
        ...(request.createdTransaction ? { transactionId: request.createdTransaction } : {}),
        ...(failed ? { requestBody: request.body, responseBody: request.failedAnswer } : {}),
      });
    }
    done();
  });
}

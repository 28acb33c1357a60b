import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { RequestLogStats } from '../request-log/index.ts';
import type { MetricsRepository } from './metrics-repository.ts';

/**
 * Prometheus metrics (text format 0.0.4) without a client library: a few counters and histograms kept
 * in this process, and gauges read at scrape time. Requests are labelled by route pattern
 * (`/_giftcards/orders/transactions/:transactionId/cards`), never by raw URL, so ids cannot grow the
 * label set; requests that match no route share the label `unmatched`.
 *
 * @example
 * const metrics = createMetrics({ repo, clock });
 * metrics.install(app);                  // counts every answer
 * const text = await metrics.render();   // what GET /metrics answers
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** What the group commit counts (its `stats()`), with the orders in flight now. */
export interface OrderBatchStats {
  batches: number;
  orders: number;
  fallbacks: number;
  commitsBehind: number;
  inFlight: number;
}

export function createMetrics(deps: {
  repo: MetricsRepository;
  clock: Clock;
  /** The API request log's buffer: rows written, dropped, waiting. */
  requestLog?: () => RequestLogStats;
  /** The group commit's counters (modules/group-commit/) and its orders in flight now. */
  orderBatches?: () => OrderBatchStats;
}) {
  const durations = new Map<string, Histogram>();
  const rejections = new Map<string, number>();
  let adminLockouts = 0;
  let fastLaneAnswers = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();

  const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

  /**
   * The series of a (route, method, status): its label strings, made once (escaping them per answer
   * cost ~1 µs), and its count. Found by route, then method, then status, each a string the server
   * keeps or a number, so no key is built per answer (a Map hashes a new string whole).
   */
  interface Series {
    key: string;
    histogram: Histogram;
    route: string;
    answered: number;
  }
  const series = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series, in the order they were first seen: what /metrics lists. */
  const allSeries: Series[] = [];
  function seriesOf(method: string, route: string, status: number): Series {
    let byMethod = series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let s = byStatus.get(status);
    if (!s) {
      const hkey = `method="${label(method)}",route="${label(route)}"`;
      let histogram = durations.get(hkey);
      if (!histogram) {
        histogram = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
        durations.set(hkey, histogram);
      }
      s = { key: `${hkey},status="${status}"`, histogram, route: `route="${label(route)}"`, answered: 0 };
      byStatus.set(status, s);
      allSeries.push(s);
    }
    return s;
  }

  function observe(method: string, route: string, status: number, seconds: number) {
    const s = seriesOf(method, route, status);
    s.answered++;
    const h = s.histogram;
    for (let i = BUCKETS.length - 1; i >= 0 && seconds <= BUCKETS[i]; i--) h.counts[i]++;
    h.sum += seconds;
    h.count++;
    if (status === 429) rejections.set(s.route, (rejections.get(s.route) ?? 0) + 1);
  }

  return {
    observe,
    /** Told by the fast lane (http/fast-lane.ts) for each answer it sent before Fastify ran. */
    fastLaneAnswer() {
      fastLaneAnswers++;
    },
    /** Told by the admin auth each time an address is refused for too many failed key checks. */
    adminLockout() {
      adminLockouts++;
    },
    install(app: FastifyInstance) {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      });
    },
    async render(): Promise<string> {
      const now = deps.clock.now();
      const [orders, queue, outbox] = await Promise.all([
        deps.repo.ordersByStatus(),
        deps.repo.queue(now),
        deps.repo.outbox(now),
      ]);
      const lines: string[] = [];
      const family = (name: string, type: string, help: string) =>
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      /** A gauge family read at scrape time: one line per [labels, value]. */
      const gauge = (name: string, help: string, series: Array<[string, number]>) => {
        family(name, 'gauge', help);
        for (const [labels, value] of series) lines.push(`${name}{${labels}} ${value}`);
      };
      const product = (q: { product: string }) => `product="${q.product}"`;
      const channel = (m: { channel: string }) => `channel="${m.channel}"`;
      family(
        'airgift_http_requests_total',
        'counter',
        'Answered requests by method, route pattern and status.',
      );
      for (const s of allSeries) lines.push(`airgift_http_requests_total{${s.key}} ${s.answered}`);
      family(
        'airgift_http_request_duration_seconds',
        'histogram',
        'Time to answer, by method and route pattern.',
      );
      for (const [k, h] of durations) {
        for (const [i, b] of BUCKETS.entries()) {
          lines.push(`airgift_http_request_duration_seconds_bucket{${k},le="${b}"} ${h.counts[i]}`);
        }
        lines.push(`airgift_http_request_duration_seconds_bucket{${k},le="+Inf"} ${h.count}`);
        lines.push(`airgift_http_request_duration_seconds_sum{${k}} ${h.sum}`);
        lines.push(`airgift_http_request_duration_seconds_count{${k}} ${h.count}`);
      }
      family(
        'airgift_rate_limit_rejections_total',
        'counter',
        'Requests refused with 429, by route pattern.',
      );
      for (const [k, v] of rejections) lines.push(`airgift_rate_limit_rejections_total{${k}} ${v}`);
      family(
        'airgift_admin_auth_lockouts_total',
        'counter',
        'Admin requests refused for too many failed key checks.',
      );
      lines.push(`airgift_admin_auth_lockouts_total ${adminLockouts}`);
      family(
        'airgift_fast_lane_answers_total',
        'counter',
        'Answers sent from memory before routing (kept catalogue and balance answers; also counted above).',
      );
      lines.push(`airgift_fast_lane_answers_total ${fastLaneAnswers}`);
      if (deps.requestLog) {
        const r = deps.requestLog();
        family(
          'airgift_request_log_rows_total',
          'counter',
          'API request log rows written, and dropped (the buffer full, or a batch that could not be written).',
        );
        lines.push(`airgift_request_log_rows_total{outcome="written"} ${r.written}`);
        lines.push(`airgift_request_log_rows_total{outcome="dropped"} ${r.dropped}`);
        family('airgift_request_log_buffered', 'gauge', 'API request log rows waiting to be written.');
        lines.push(`airgift_request_log_buffered ${r.buffered}`);
      }
      if (deps.orderBatches) {
        const b = deps.orderBatches();
        const counters: Array<[string, string, number]> = [
          [
            'airgift_order_batches_total',
            'Transactions orders ran in (a batch of one or more orders of one account).',
            b.batches,
          ],
          [
            'airgift_order_batch_orders_total',
            'Orders run in them: divided by the batches, the mean batch size.',
            b.orders,
          ],
          [
            'airgift_order_batch_fallbacks_total',
            'Batches rolled back and run again one order at a time (one that did not fit; an order alone its statement refused).',
            b.fallbacks,
          ],
          [
            'airgift_order_commits_behind_total',
            'Batches (an order alone included) whose COMMIT went out behind their last statement.',
            b.commitsBehind,
          ],
        ];
        for (const [name, help, value] of counters) {
          family(name, 'counter', help);
          lines.push(`${name} ${value}`);
        }
        family(
          'airgift_orders_in_flight',
          'gauge',
          'Orders waiting for or running in their transactions now.',
        );
        lines.push(`airgift_orders_in_flight ${b.inFlight}`);
      }
      gauge(
        'airgift_orders',
        'Orders (gift cards) and top-ups by status.',
        orders.map((o) => [`${product(o)},status="${o.status}"`, o.n]),
      );
      gauge(
        'airgift_jobs_waiting',
        'Orders and top-ups with a next check scheduled (the background queue).',
        queue.map((q) => [product(q), q.waiting]),
      );
      gauge(
        'airgift_jobs_due',
        'Of those, the ones whose check is due now.',
        queue.map((q) => [product(q), q.due]),
      );
      gauge(
        'airgift_jobs_oldest_due_seconds',
        'How long the oldest due check has waited (0: none due).',
        queue.map((q) => [product(q), q.oldestDueSeconds]),
      );
      gauge(
        'airgift_messages_queued',
        'E-mails and SMS waiting to be sent (the outbox), by channel.',
        outbox.map((m) => [channel(m), m.queued]),
      );
      gauge(
        'airgift_messages_oldest_due_seconds',
        'How long the oldest message due has waited to be sent (0: none due).',
        outbox.map((m) => [channel(m), m.oldestDueSeconds]),
      );
      family('airgift_process_resident_memory_bytes', 'gauge', 'Resident set size of this process.');
      lines.push(`airgift_process_resident_memory_bytes ${process.memoryUsage().rss}`);
      family(
        'airgift_event_loop_lag_seconds',
        'gauge',
        'Event loop delay since the last scrape: p50, p99 and max.',
      );
      for (const [q, v] of [
        ['0.5', loop.percentile(50)],
        ['0.99', loop.percentile(99)],
        ['1', loop.max],
      ] as const) {
        lines.push(`airgift_event_loop_lag_seconds{quantile="${q}"} ${(Number.isFinite(v) ? v : 0) / 1e9}`);
      }
      loop.reset();
      return `${lines.join('\n')}\n`;
    },
    close() {
      loop.disable();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `GET /metrics` on the admin base (behind the admin key). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics) {
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.render()),
  );
}

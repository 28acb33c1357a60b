/**
 * Prometheus metrics on the admin base (`GET /metrics`): request counters and histograms by route
 * pattern, orders, the job queue, RSS and event-loop lag, in the text format, without a library.
 */

export { createMetrics, type Metrics, metricsRoute } from './metrics.ts';
export { metricsRepository } from './metrics-repository.ts';

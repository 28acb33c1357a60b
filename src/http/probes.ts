import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../readiness.ts';

/**
 * The two probes, outside every base, on any host:
 * - `GET /health`, liveness: the process answers. It never touches the database, so a database
 *   outage does not get every server restarted.
 * - `GET /ready`, readiness: 200 when this server can take traffic (database within 1 s, migrations
 *   applied, workers running, not shutting down, the disk not full), else 503 with the reason.
 * Neither carries data, so both also answer over plain HTTP (a kubelet probing a TLS=off pod).
 */
export const PROBE_PATHS = ['/health', '/ready'];

export function probeRoutes(app: FastifyInstance, readiness: Readiness | undefined) {
  app.get('/health', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/ready', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!readiness) return reply.code(503).send({ status: 'not ready', reason: 'no readiness checks' });
    const report = await readiness.check();
    return reply
      .code(report.ready ? 200 : 503)
      .send({ status: report.ready ? 'ready' : 'not ready', reason: report.reason, checks: report.checks });
  });
}

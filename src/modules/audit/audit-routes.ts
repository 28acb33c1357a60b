import { Type } from 'typebox';
import { pagingQuery, toLimitOffset } from '../../http/paging.ts';
import type { TypedApp } from '../../http/schemas.ts';
import type { AuditLog } from './audit-log.ts';
import { AuditPage, AuditQuery, AuditVerification } from './audit-schemas.ts';

/**
 * The audit log on the admin API (`airgift audit`, `airgift audit --csv`, `airgift audit verify`):
 * one page of lines, newest first, filtered; the same as CSV; the walk of the whole chain.
 */
export function auditAdminRoutes(app: TypedApp, audit: AuditLog) {
  app.get(
    '/audit',
    {
      schema: {
        querystring: Type.Object({ ...AuditQuery.properties, ...pagingQuery(100) }),
        response: { 200: AuditPage },
      },
    },
    async (request) => {
      const { page: _, size: __, ...filter } = request.query;
      const page = toLimitOffset(request.query, 100);
      return { ...(await audit.list(filter, page)), page: page.page, size: page.size };
    },
  );

  app.get(
    '/audit.csv',
    {
      schema: {
        querystring: AuditQuery,
        description: 'The filtered lines as CSV (text/csv), newest first, at most 100 000',
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(await audit.csv(request.query)),
  );

  app.get('/audit/verify', { schema: { response: { 200: AuditVerification } } }, async () => audit.verify());
}

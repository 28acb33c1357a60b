import { requestLog } from '../../ui/request-log.ts';
import type { PageDef } from '../../ui/shell.ts';
import { go } from '../../ui/shell.ts';
import { envOf } from '../../ui/widgets.ts';

/** The account's API requests, a failed one with what was sent and answered (modules/request-log). */
export const requestsPage: PageDef = {
  path: '/requests',
  title: 'Request log',
  render: (body, route) =>
    requestLog(body, route, {
      api: '/api/requests',
      env: envOf(route),
      to: (query) => go('/requests', query),
    }),
};

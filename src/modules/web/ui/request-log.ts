import type { Static } from 'typebox';
import type { LoggedRequest, RequestLogPage } from '../../request-log/request-log-schemas.ts';
import { get } from './api.ts';
import { field, h, select, table } from './dom.ts';
import type { Route } from './route.ts';
import { type Env, pageNumber, pager } from './widgets.ts';

/**
 * The API request log of one account, as the dashboard's "Request log" page and the console's show
 * it: filters (status, a part of the path, a time range), one page of requests newest first, the
 * masked body and answer of a failed one under a disclosure. `api` is the JSON endpoint, `to`
 * navigates with a new query (the page keeps its own parameters, such as the console's account).
 */
const STATUSES: [string, string][] = [
  ['', 'Any status'],
  ['failed', 'Failed (4xx and 5xx)'],
  ['2xx', '2xx'],
  ['4xx', '4xx'],
  ['5xx', '5xx'],
];

/** `2026-11-22T07:01` (a datetime-local input) as the API's `2026-11-22 07:01`, and back. */
const toApi = (local: string) => local.replace('T', ' ');
const toInput = (text: string) => text.replace(' ', 'T');

function bodies(r: Static<typeof LoggedRequest>): Node | string {
  if (!r.requestBody && !r.responseBody) return '—';
  return h(
    'details',
    {},
    h('summary', {}, `Body of ${r.requestId}`),
    r.requestBody ? h('p', {}, 'Sent:') : null,
    r.requestBody ? h('pre', {}, r.requestBody) : null,
    r.responseBody ? h('p', {}, 'Answered:') : null,
    r.responseBody ? h('pre', {}, r.responseBody) : null,
  );
}

export async function requestLog(
  body: HTMLElement,
  route: Route,
  o: { api: string; env: Env; to: (query: Record<string, string>) => void },
) {
  const q = route.query;
  const page = pageNumber(route);
  const filter = {
    environment: o.env,
    status: q.get('status') ?? '',
    path: q.get('path') ?? '',
    startDate: q.get('startDate') ?? '',
    endDate: q.get('endDate') ?? '',
  };
  const state = select('status', STATUSES, filter.status);
  const path = h('input', { type: 'text', name: 'path', value: filter.path, placeholder: '/orders' });
  const from = h('input', { type: 'datetime-local', name: 'startDate', value: toInput(filter.startDate) });
  const to = h('input', { type: 'datetime-local', name: 'endDate', value: toInput(filter.endDate) });
  const form = h(
    'form',
    { class: 'filters', 'aria-label': 'Filters' },
    field('Status', state),
    field('Path contains', path),
    field('From (UTC)', from),
    field('To (UTC)', to),
    h('button', { type: 'submit', class: 'primary' }, 'Filter'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    o.to({
      environment: o.env,
      status: state.value,
      path: path.value,
      startDate: toApi(from.value),
      endDate: toApi(to.value),
    });
  });
  const r = await get<typeof RequestLogPage>(o.api, { ...filter, page, size: 50 });
  const filtered = filter.status || filter.path || filter.startDate || filter.endDate;
  body.append(
    form,
    h(
      'p',
      { class: 'muted' },
      `Requests to the ${o.env} APIs of the last ${r.retentionDays} days, newest first. Failed ones keep what was sent and answered, secrets masked.`,
    ),
    r.items.length === 0
      ? h(
          'p',
          { class: 'status info', role: 'status' },
          filtered ? 'No request matches these filters.' : `No request to the ${o.env} APIs yet.`,
        )
      : table(
          `API requests (${o.env}), page ${page}`,
          ['When (UTC)', 'Status', 'Method', 'Path', 'Client', 'Latency', 'Request id', 'Body'],
          r.items.map((x) => [
            x.at,
            h('span', { class: `badge ${x.status >= 400 ? 'failed' : 'successful'}` }, String(x.status)),
            x.method,
            h('code', {}, x.path),
            h('code', {}, x.clientId),
            `${x.latencyMs.toFixed(1)} ms`,
            h('code', {}, x.requestId),
            bodies(x),
          ]),
        ),
    pager(page, r.hasMore, (p) => o.to({ ...filter, page: String(p) })),
  );
}

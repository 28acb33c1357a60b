import type { FastifyInstance, RouteOptions } from 'fastify';
import { ERROR_CODES } from '../errors/error-codes.ts';
import type { Base, BaseKind } from './bases.ts';
import { MOUNTS } from './bases.ts';
import { ErrorEnvelope } from './schemas.ts';

/**
 * OpenAPI 3.1 documents generated from the same route schemas that validate requests and shape
 * responses, one per base kind (token service, gift cards, top-ups, admin), so a document cannot
 * drift from the routes. Served at `{base}/openapi.json`; `{base}/docs` renders it for people.
 * Every operation also documents the error envelope as its `default` response.
 */
interface CollectedRoute {
  method: string;
  url: string;
  schema: Record<string, any>;
  scope: string | null | undefined;
  docs: boolean;
}

const TITLES: Record<BaseKind, string> = {
  auth: 'airgift token service',
  giftcards: 'airgift gift card service',
  topups: 'airgift mobile top-up service',
  admin: 'airgift admin API',
  dashboard: 'airgift account dashboard (the JSON its pages call; session cookie + X-CSRF-Token)',
  console: 'airgift operator console (the JSON its pages call; session cookie + X-CSRF-Token)',
};

const OAuthError = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

/** Collects every route as it is registered; call before the routes are added. */
export function createOpenApiRegistry(app: FastifyInstance) {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const access = (route.config as { access?: { scope?: string | null; docs?: boolean } } | undefined)
      ?.access;
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        schema: (route.schema ?? {}) as Record<string, any>,
        scope: access?.scope,
        docs: access?.docs === true,
      });
    }
  });
  const cache = new Map<BaseKind, object>();
  return {
    document(kind: BaseKind, bases: Base[], defaultScope?: string): object {
      const hit = cache.get(kind);
      if (hit) return hit;
      const doc = buildDocument(kind, routes, bases, defaultScope);
      cache.set(kind, doc);
      return doc;
    },
  };
}

export type OpenApiRegistry = ReturnType<typeof createOpenApiRegistry>;

function buildDocument(kind: BaseKind, routes: CollectedRoute[], bases: Base[], defaultScope?: string) {
  const mount = MOUNTS[kind];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.url.startsWith(`${mount}/`) || route.docs) continue;
    const path = route.url.slice(mount.length).replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(kind, route, path, defaultScope);
  }
  const product = kind === 'giftcards' || kind === 'topups';
  return {
    openapi: '3.1.0',
    info: {
      title: TITLES[kind],
      version: '1.0.0',
      description: describe(kind),
    },
    servers: bases
      .filter((b) => b.kind === kind)
      .map((b) => ({ url: b.url, description: b.environment ?? kind })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: { ErrorEnvelope, OAuthError },
      securitySchemes: product
        ? {
            bearer: {
              type: 'oauth2',
              description: 'Client credentials; the audience is this base URL.',
              flows: {
                clientCredentials: {
                  tokenUrl: `${bases.find((b) => b.kind === 'auth')?.url}/oauth/token`,
                  scopes: {},
                },
              },
            },
          }
        : kind === 'admin'
          ? {
              adminKey: {
                type: 'http',
                scheme: 'bearer',
                description: 'The admin key (ADMIN_KEY or DATA_DIR/admin.key).',
              },
            }
          : {},
    },
    'x-error-codes': Object.entries(ERROR_CODES).map(([code, info]) => ({ code, ...info })),
  };
}

function operation(kind: BaseKind, route: CollectedRoute, path: string, defaultScope?: string) {
  const { schema } = route;
  const parameters = [...toParameters(schema.params, 'path'), ...toParameters(schema.querystring, 'query')];
  const responses: Record<string, unknown> = {};
  for (const [status, body] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
    responses[status] = {
      description: status === '200' ? 'OK' : `Status ${status}`,
      content: { 'application/json': { schema: body } },
    };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'OK' };
  responses.default =
    kind === 'auth'
      ? {
          description: 'OAuth error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
        }
      : {
          description: 'Error envelope',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        };
  const scope = route.scope === undefined ? defaultScope : route.scope;
  return {
    operationId: `${route.method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ? c.toUpperCase() : ''))}`,
    ...(schema.summary && { summary: schema.summary }),
    ...(schema.description && { description: schema.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(schema.body && {
      requestBody: { required: true, content: { 'application/json': { schema: schema.body } } },
    }),
    responses,
    ...(kind === 'giftcards' || kind === 'topups'
      ? { security: [{ bearer: scope ? [scope] : [] }] }
      : kind === 'admin'
        ? { security: [{ adminKey: [] }] }
        : {}),
  };
}

function toParameters(schema: any, where: 'path' | 'query') {
  if (!schema?.properties) return [];
  const required: string[] = schema.required ?? [];
  return Object.entries(schema.properties as Record<string, any>).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    ...(s.description && { description: s.description }),
    schema: s,
  }));
}

function describe(kind: BaseKind): string {
  const lines = [
    `Generated from the route schemas of airgift. Errors answer the envelope \`{timeStamp, message, infoLink, path, errorCode, details}\` (the token service: OAuth's \`{error, error_description}\`).`,
    '',
    '| errorCode | status | meaning | what to do |',
    '|---|---|---|---|',
    ...Object.entries(ERROR_CODES).map(([code, i]) => `| ${code} | ${i.status} | ${i.message} | ${i.fix} |`),
  ];
  if (kind === 'auth')
    lines.unshift(
      'POST /oauth/token with the client credentials grant; the audience is a product base URL.',
      '',
    );
  return lines.join('\n');
}

/** `{base}/openapi.json` and `{base}/docs`, public, registered inside a base's plugin. */
export function docsRoutes(
  app: FastifyInstance,
  registry: OpenApiRegistry,
  kind: BaseKind,
  bases: Base[],
  defaultScope?: string,
) {
  const config = { access: { scope: null, docs: true } };
  app.get('/openapi.json', { config }, async () => registry.document(kind, bases, defaultScope));
  app.get('/docs', { config }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(docsPage(registry.document(kind, bases, defaultScope) as ReturnType<typeof buildDocument>)),
  );
}

const esc = (s: unknown) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function fields(schema: any, depth = 0): string {
  if (!schema || depth > 4) return '';
  const target = schema.type === 'array' ? schema.items : schema;
  if (!target?.properties) return schema.type ? `<code>${esc(schema.type)}</code>` : '';
  const required: string[] = target.required ?? [];
  const rows = Object.entries(target.properties as Record<string, any>).map(
    ([name, s]) =>
      `<li><code>${esc(name)}</code> <small>${esc(s.type ?? (s.anyOf ? s.anyOf.map((x: any) => x.type).join(' | ') : ''))}${required.includes(name) ? '' : ', optional'}</small>${s.description ? ` — ${esc(s.description)}` : ''}${fields(s, depth + 1) && (s.properties || s.items?.properties) ? fields(s, depth + 1) : ''}</li>`,
  );
  return `${schema.type === 'array' ? '<small>array of</small>' : ''}<ul>${rows.join('')}</ul>`;
}

function docsPage(doc: ReturnType<typeof buildDocument>): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]: [string, any]) => {
      const params = (op.parameters ?? [])
        .map(
          (p: any) =>
            `<li><code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small></li>`,
        )
        .join('');
      const ok = op.responses['200']?.content?.['application/json']?.schema;
      return `<section id="${esc(op.operationId)}"><h3><span class="m">${method.toUpperCase()}</span> ${esc(path)}</h3>
${op.security?.[0]?.bearer?.length ? `<p>Scope: <code>${esc(op.security[0].bearer.join(' '))}</code></p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
${op.requestBody ? `<h4>Body</h4>${fields(op.requestBody.content['application/json'].schema)}` : ''}
${ok ? `<h4>200</h4>${fields(ok)}` : ''}</section>`;
    }),
  );
  const errors = (doc['x-error-codes'] as { code: string; status: number; message: string; fix: string }[])
    .map(
      (e) =>
        `<tr id="${e.code}"><td><code>${e.code}</code></td><td>${e.status}</td><td>${esc(e.message)}</td><td>${esc(e.fix)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font:15px system-ui;margin:2rem;max-width:60rem}section{border-top:1px solid #ddd}.m{font-family:monospace;background:#eef;padding:0 .3rem}td,th{padding:.3rem;border-bottom:1px solid #eee;text-align:left}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>Servers: ${doc.servers.map((s) => `<code>${esc(s.url)}</code> (${esc(s.description)})`).join(', ')}. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
${ops.join('\n')}
<h2>Error codes</h2><table><tr><th>errorCode</th><th>status</th><th>meaning</th><th>what to do</th></tr>${errors}</table></body></html>`;
}

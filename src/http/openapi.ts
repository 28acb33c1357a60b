import type { FastifyInstance, RouteOptions } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.ts';
import { OAUTH_ERRORS } from '../errors/oauth-error.ts';
import type { Base, BaseKind } from './bases.ts';
import { MOUNTS } from './bases.ts';
import { referencePageRoutes } from './reference-pages.ts';
import { ErrorEnvelope, GiftcardErrorEnvelope } from './schemas.ts';

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
  /** dashboard and console: the permission a user's role must grant (modules/web/permissions.ts) */
  permission: string | undefined;
}

/** One operation's words in the document; the schemas come from the route itself. */
export interface OperationDocs {
  summary: string;
  description: string;
  tag: string;
  /** Error codes this operation answers besides the ones every operation of its base shares. */
  errors?: ErrorCode[];
  /**
   * Limits the service enforces (with the spec's own error codes) that the route's validation
   * schema leaves out on purpose: putting them there would answer a generic validation error
   * instead. They are written into the published document only (`applyLimits`), and
   * test/http/openapi-limits.test.ts sends each limit and one past it to prove the service
   * enforces exactly what is written.
   */
  limits?: FieldLimits | ((settings: DocSettings) => FieldLimits);
}

/**
 * Keyword sets by field: `'body.senderName'`, `'body.recipientPhoneDetails.countryCode'`,
 * `'query.startDate'`, `'path.countrycode'` -> `{ maxLength: 200 }`.
 */
export type FieldLimits = Record<string, Record<string, unknown>>;

/** The server settings a document states (limits that are configurable). */
export interface DocSettings {
  orderMaxQuantity: number;
}

/**
 * A base's document text: title, description, tags, the named schemas lifted into
 * `components.schemas` (a schema equal to one of these is written as a `$ref`), scopes, and the
 * operations keyed by `METHOD path` (`GET /products/{productId}`).
 */
export interface ApiDocs {
  title: string;
  description: string;
  tags: { name: string; description: string }[];
  schemas?: Record<string, unknown>;
  scopes?: Record<string, string>;
  operations: Record<string, OperationDocs>;
}

/** Real request/answer pairs, written by `scripts/write-openapi-examples.ts` from a running app. */
export interface RecordedExample {
  request: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  response: { status: number; body: unknown };
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
  properties: {
    error: {
      type: 'string',
      enum: [...Object.keys(OAUTH_ERRORS), 'temporarily_unavailable', 'too_many_requests'],
      description: 'RFC 6749 §5.2 error code',
    },
    error_description: { type: 'string', description: 'What is wrong, in words' },
  },
};

const LICENSE = { name: 'Proprietary: the terms of the deployment that serves this document' };

export interface DocumentOptions {
  defaultScope?: string;
  docs?: ApiDocs;
  examples?: Record<string, RecordedExample>;
  settings?: DocSettings;
}

/** Collects every route as it is registered; call before the routes are added. */
export function createOpenApiRegistry(app: FastifyInstance) {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const config = route.config as
      | { access?: { scope?: string | null; docs?: boolean }; permission?: string }
      | undefined;
    const access = config?.access;
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        schema: (route.schema ?? {}) as Record<string, any>,
        scope: access?.scope,
        docs: access?.docs === true,
        permission: access?.scope === null ? undefined : config?.permission,
      });
    }
  });
  const cache = new Map<BaseKind, object>();
  return {
    document(kind: BaseKind, bases: Base[], options: DocumentOptions = {}): OpenApiDocument {
      const hit = cache.get(kind);
      if (hit) return hit as OpenApiDocument;
      const doc = buildDocument(kind, routes, bases, options);
      cache.set(kind, doc);
      return doc;
    },
  };
}

export type OpenApiRegistry = ReturnType<typeof createOpenApiRegistry>;
export type OpenApiDocument = ReturnType<typeof buildDocument>;

function buildDocument(kind: BaseKind, routes: CollectedRoute[], bases: Base[], options: DocumentOptions) {
  const mount = MOUNTS[kind];
  const product = kind === 'giftcards' || kind === 'topups';
  const lifter = createLifter(options.docs?.schemas ?? {});
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.url.startsWith(`${mount}/`) || route.docs) continue;
    const path = route.url.slice(mount.length).replace(/:(\w+)/g, '{$1}');
    const key = `${route.method} ${path}`;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = lifter.lift(
      operation(
        kind,
        route,
        path,
        options.docs?.operations[key],
        options.examples?.[key],
        options.defaultScope,
      ),
    );
  }
  const authUrl = bases.find((b) => b.kind === 'auth')?.url;
  const schemas: Record<string, unknown> = { ...lifter.components() };
  applyLimits(paths, schemas, options);
  if (kind === 'auth') schemas.OAuthError = OAuthError;
  else schemas.ErrorEnvelope = lifter.lift(kind === 'giftcards' ? GiftcardErrorEnvelope : ErrorEnvelope);
  return {
    openapi: '3.1.0',
    info: {
      title: options.docs?.title ?? TITLES[kind],
      version: '1.0.0',
      description: describe(kind, options.docs),
      license: LICENSE,
    },
    servers: bases
      .filter((b) => b.kind === kind)
      .map((b) => ({ url: b.url, description: b.environment ?? kind })),
    ...(options.docs && { tags: options.docs.tags }),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      securitySchemes: product
        ? {
            bearer: {
              type: 'oauth2',
              description:
                `OAuth 2.0 client credentials. POST \`client_id\`, \`client_secret\`, \`grant_type=client_credentials\` and ` +
                `\`audience\` to the token URL, as JSON or a form. The \`audience\` is the base URL of the product and environment ` +
                `the token is for (${bases
                  .filter((b) => b.kind === kind)
                  .map((b) => `\`${b.url}\``)
                  .join(
                    ' or ',
                  )}): a token works on that base only, and carries the scopes of this product that the credential has. ` +
                'Send it as `Authorization: Bearer <access_token>`.',
              flows: {
                clientCredentials: {
                  tokenUrl: `${authUrl}/oauth/token`,
                  scopes: options.docs?.scopes ?? {},
                  // Read by the reference page's try-it (Scalar), which calls the sandbox: its token
                  // request must name the sandbox base as audience.
                  'x-scalar-credentials-location': 'body',
                  'x-scalar-security-body': {
                    audience: (
                      bases.find((b) => b.kind === kind && b.environment === 'sandbox') ??
                      bases.find((b) => b.kind === kind)
                    )?.url,
                  },
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

/** The error codes every operation of a base can answer, from its transport, auth and input checks. */
function sharedErrors(kind: BaseKind, route: CollectedRoute): ErrorCode[] {
  const { schema } = route;
  const input = Boolean(schema.params || schema.querystring || schema.body);
  const codes: ErrorCode[] = [];
  if (input) codes.push('INVALID_REQUEST');
  if (kind === 'giftcards' || kind === 'topups') {
    codes.push('AUTHENTICATION_FAILURE', 'TOKEN_EXPIRED', 'NOT_AUTHORIZED', 'MEDIA_TYPE_NOT_ACCEPTABLE');
    codes.push('RATE_LIMIT_REACHED');
  } else codes.push('AUTHENTICATION_FAILURE');
  if (route.permission) codes.push('ROLE_NOT_ALLOWED');
  if (schema.params) codes.push('RESOURCE_NOT_FOUND');
  if (schema.body) codes.push('REQUEST_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  codes.push('INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE');
  return codes;
}

function errorResponses(codes: ErrorCode[], path: string): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].message} ${ERROR_CODES[c].fix}`).join('\n\n'),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          examples: Object.fromEntries(
            list.map((code) => [
              code,
              {
                summary: code,
                value: {
                  timeStamp: 1763900000000,
                  message: ERROR_CODES[code].message,
                  infoLink: `https://airgift.example/docs/errors#${code}`,
                  path,
                  errorCode: code,
                  details: [],
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

function operation(
  kind: BaseKind,
  route: CollectedRoute,
  path: string,
  docs: OperationDocs | undefined,
  example: RecordedExample | undefined,
  defaultScope?: string,
) {
  const { schema } = route;
  const parameters = [
    ...toParameters(schema.params, 'path', example?.request.path),
    ...toParameters(schema.querystring, 'query', example?.request.query),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, body] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
    // Fastify's form for other media types, `{ description, content: { 'application/gzip': { schema } } }`
    const byMediaType = body as { description?: string; content?: Record<string, unknown> };
    if (byMediaType.content) {
      responses[status] = { description: byMediaType.description ?? 'OK', content: byMediaType.content };
      continue;
    }
    const recorded =
      example && String(example.response.status) === status ? example.response.body : undefined;
    responses[status] = {
      description: status === '200' ? 'OK' : `Status ${status}`,
      content: {
        'application/json': { schema: body, ...(recorded !== undefined && { example: recorded }) },
      },
    };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'OK' };
  const scope = route.scope === undefined ? defaultScope : route.scope;
  if (kind === 'auth') {
    Object.assign(responses, {
      '400': oauthResponse(
        'invalid_request (also a field sent twice), unsupported_grant_type, invalid_target (an unknown audience) or invalid_scope',
      ),
      '401': oauthResponse(
        'invalid_client: unknown client, wrong secret, revoked credential, or a credential of the other environment (named in error_description)',
      ),
      '413': oauthResponse('invalid_request: the body is over BODY_LIMIT'),
      '429': oauthResponse(
        "too_many_requests: this client's tokens, or this address's refused requests, past their limit; wait the seconds in `Retry-After`",
      ),
      '503': oauthResponse('temporarily_unavailable: the database is away; retry after `Retry-After`'),
    });
  } else {
    Object.assign(responses, errorResponses([...sharedErrors(kind, route), ...(docs?.errors ?? [])], path));
  }
  responses.default = {
    description: kind === 'auth' ? 'OAuth error' : 'Error envelope',
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${kind === 'auth' ? 'OAuthError' : 'ErrorEnvelope'}` },
      },
    },
  };
  const requestExample = example?.request.body;
  return {
    operationId: `${route.method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ? c.toUpperCase() : ''))}`,
    summary: docs?.summary ?? schema.summary ?? `${route.method} ${path}`,
    ...((docs?.description ?? schema.description) && {
      description: `${docs?.description ?? schema.description}${scope ? `\n\nScope: \`${scope}\`.` : ''}`,
    }),
    // the role's permission it takes (the dashboard's and console's roles: docs/dashboard-and-console.md)
    ...(route.permission && { 'x-permission': route.permission }),
    ...(docs?.tag && { tags: [docs.tag] }),
    ...(parameters.length > 0 && { parameters }),
    ...(schema.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: schema.body,
            ...(requestExample !== undefined && { example: requestExample }),
          },
        },
      },
    }),
    responses,
    ...(kind === 'giftcards' || kind === 'topups'
      ? { security: [{ bearer: scope ? [scope] : [] }] }
      : kind === 'admin'
        ? { security: [{ adminKey: [] }] }
        : { security: [] }),
  };
}

function oauthResponse(description: string) {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
  };
}

function toParameters(schema: any, where: 'path' | 'query', example?: Record<string, unknown>) {
  if (!schema?.properties) return [];
  const required: string[] = schema.required ?? [];
  return Object.entries(schema.properties as Record<string, any>).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    ...(s.description && { description: s.description }),
    schema: s,
    // Path and query values are text on the wire: a recorded 10001 is "10001" for a string parameter.
    ...(example?.[name] !== undefined && {
      example: s.type === 'string' ? String(example[name]) : example[name],
    }),
  }));
}

/** A JSON Schema node as the limits walk reads it. */
interface SchemaNode {
  $ref?: string;
  type?: unknown;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  [keyword: string]: unknown;
}

/** What the limits walk reads of an operation. */
interface OperationNode {
  requestBody?: { content: Record<string, { schema: SchemaNode }> };
  parameters?: { in: string; name: string; schema: SchemaNode }[];
}

/** The operations' documented limits written into their schemas (components reached by `$ref` included). */
function applyLimits(
  paths: Record<string, Record<string, unknown>>,
  schemas: Record<string, unknown>,
  options: DocumentOptions,
) {
  const settings = options.settings ?? { orderMaxQuantity: 10 };
  const deref = (node: SchemaNode | undefined): SchemaNode | undefined =>
    node?.$ref ? (schemas[node.$ref.replace('#/components/schemas/', '')] as SchemaNode) : node;
  // A nullable field is `anyOf [T, null]`: its limits and properties are T's.
  const nonNull = (node: SchemaNode | undefined): SchemaNode | undefined => {
    const schema = deref(node);
    return schema?.anyOf ? schema.anyOf.map(deref).find((m) => m?.type !== 'null') : schema;
  };
  for (const [key, docs] of Object.entries(options.docs?.operations ?? {})) {
    if (!docs.limits) continue;
    const limits = typeof docs.limits === 'function' ? docs.limits(settings) : docs.limits;
    const [method, path] = key.split(' ');
    const op = paths[path]?.[method.toLowerCase()] as OperationNode | undefined;
    if (!op) throw new Error(`limits for ${key}: no such operation`);
    for (const [field, keywords] of Object.entries(limits)) {
      const [part, first, ...rest] = field.split('.');
      let node =
        part === 'body'
          ? nonNull(op.requestBody?.content['application/json'].schema)?.properties?.[first]
          : op.parameters?.find((p) => p.in === part && p.name === first)?.schema;
      for (const name of rest) node = nonNull(node)?.properties?.[name];
      const target = nonNull(node);
      if (!target) throw new Error(`limits for ${key}: no field ${field}`);
      Object.assign(target, keywords);
    }
  }
}

/**
 * Lifts named schemas into `components.schemas`: any node of an operation equal (as JSON) to a named
 * schema becomes a `$ref`, so generated clients get `Product` or `Operator` instead of anonymous
 * types, while the routes keep plain inline schemas (what validates and serialises is unchanged).
 */
function createLifter(named: Record<string, unknown>) {
  const nameOf = new Map(Object.entries(named).map(([name, schema]) => [JSON.stringify(schema), name]));
  const used = new Map<string, unknown>();
  const clean = (node: unknown) => JSON.parse(JSON.stringify(node)) as unknown;
  const walk = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (node === null || typeof node !== 'object') return node;
    const name = root ? undefined : nameOf.get(JSON.stringify(node));
    if (name) {
      if (!used.has(name)) {
        used.set(name, null);
        used.set(name, walk(node, true));
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, false)]));
  };
  return {
    lift: <T>(node: T): T => walk(clean(node), false) as T,
    components: () => Object.fromEntries([...used].sort(([a], [b]) => a.localeCompare(b))),
  };
}

function describe(kind: BaseKind, docs?: ApiDocs): string {
  const lines = [
    ...(docs ? [docs.description, ''] : []),
    "Errors answer the envelope `{timeStamp, message, infoLink, path, errorCode, details}` (the token service: OAuth's `{error, error_description}`); `infoLink` points at the error code's entry on the [error page](/docs/errors).",
    '',
    // a list, not a table: the introduction is a narrow column, where a four-column table was
    // squeezed to a letter per line (issue 28)
    ...Object.entries(ERROR_CODES).map(
      ([code, i]) => `- **\`${code}\`** (${i.status}): ${i.message} *What to do:* ${i.fix}`,
    ),
  ];
  if (kind === 'auth')
    lines.unshift(
      'POST /oauth/token with the client credentials grant; the audience is a product base URL.',
      '',
    );
  return lines.join('\n');
}

/** What a base's document and reference pages are built from, besides its routes. */
export interface BaseDocs {
  kind: BaseKind;
  bases: Base[];
  options?: DocumentOptions;
  /** The development CA's file, as the getting-started pages' curl lines pass it (`--cacert`). */
  caFile?: string;
}

/**
 * `{base}/openapi.json` and the reference pages (`reference-pages.ts`), public, registered inside a
 * base's plugin.
 */
export function docsRoutes(app: FastifyInstance, registry: OpenApiRegistry, base: BaseDocs) {
  const config = { access: { scope: null, docs: true } };
  const document = () => registry.document(base.kind, base.bases, base.options);
  app.get('/openapi.json', { config }, async () => document());
  referencePageRoutes(app, { kind: base.kind, bases: base.bases, document, caFile: base.caFile });
}

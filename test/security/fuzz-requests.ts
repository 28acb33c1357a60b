import fc from 'fast-check';
import type { Operation } from './operations.ts';
import { BODIES, SAMPLES } from './samples.ts';

/**
 * Generated bad requests for one published operation (fast-check): the operation's own path, query
 * and body, each part either valid, missing, of the wrong type, huge, negative, fractional, 151
 * characters long, unicode, NUL, path traversal, or extra; bodies that are broken JSON or of another
 * content type; headers repeated or overlong. Most requests keep a valid token and Accept header so
 * they get past authentication and reach validation and the handlers.
 *
 * @example
 * const [req] = fc.sample(requestFor(op, credentials), { numRuns: 1, seed: 42 });
 * await app.inject(req);
 */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string;
  /** What was generated, for the failure report. */
  label: string;
}

export interface FuzzCredentials {
  /** Authorization header values that pass, per base kind. */
  authorization: Record<string, string>;
  /** Values for the token endpoint's fields. */
  clientId: string;
  clientSecret: string;
  /** Path prefix per base kind. */
  prefix: Record<string, string>;
  accept: Record<string, string>;
  /** Path parameter samples over SAMPLES: the admin operations' accountId is never the fuzzing caller's. */
  samples: Record<string, string>;
}

const ID_151 = 'i'.repeat(151);
const TRAVERSALS = [
  '..',
  '../..',
  '../../etc/passwd',
  '..%2F..%2Fadmin',
  '%2e%2e%2f%2e%2e%2f',
  '..\\..\\windows',
  '%252e%252e',
  '/admin/accounts',
  '.%00.',
];
const SPECIAL = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '😀'.repeat(40),
  '١٢٣',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  '9007199254740993',
  '99999999999999999999999',
  '-1',
  '1.5',
  '10.005',
  ID_151,
];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SPECIAL, ...TRAVERSALS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 151, maxLength: 160 }),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    -0.5,
    0.5,
    1.5,
    10.005,
    1e-9,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    1e308,
    -1e308,
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, leaning on the nasty ones. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(nastyString, nastyNumber), { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(nastyString, nastyNumber), { maxKeys: 3 }),
  },
);

/** A plausible value for a schema, for the parts a request keeps valid. */
function plausible(schema: any, name: string): unknown {
  if (!schema || typeof schema !== 'object') return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options))
    return plausible(options.find((o: any) => o.type !== 'null') ?? options[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
      return Number(SAMPLES[name] ?? schema.minimum ?? 1);
    case 'number':
      return 10;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, name)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) out[key] = plausible(sub, key);
      return out;
    }
    default:
      return SAMPLES[name] ?? (schema.minLength > 1 ? 'x'.repeat(schema.minLength) : 'x');
  }
}

type Mutation =
  | { kind: 'set'; path: string[]; value: unknown }
  | { kind: 'delete'; path: string[] }
  | { kind: 'extra'; key: string; value: unknown };

function fieldPaths(schema: any, prefix: string[] = [], depth = 0): string[][] {
  if (!schema || depth > 3) return [];
  const out: string[][] = [];
  for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) {
    out.push([...prefix, key]);
    out.push(...fieldPaths(sub, [...prefix, key], depth + 1));
  }
  return out;
}

function applyMutation(body: any, m: Mutation) {
  if (m.kind === 'extra') {
    body[m.key] = m.value;
    return;
  }
  let node = body;
  for (const part of m.path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = node[part];
  }
  if (node === null || typeof node !== 'object') return;
  const leaf = m.path[m.path.length - 1] as string;
  if (m.kind === 'delete') delete node[leaf];
  else node[leaf] = m.value;
}

function bodyArbitrary(
  op: Operation,
): fc.Arbitrary<{ payload: string; contentType: string | null; label: string }> {
  const base = () =>
    (BODIES[`${op.kind} ${op.key}`]?.() ?? plausible(op.bodySchema, 'body')) as Record<string, unknown>;
  const paths = fieldPaths(op.bodySchema);
  const mutation: fc.Arbitrary<Mutation> = paths.length
    ? fc.oneof(
        fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...paths), value: nastyValue }),
        fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths) }),
        fc.record({
          kind: fc.constant('extra' as const),
          key: fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom('__proto__', 'constructor', 'accountId', 'balance'),
          ),
          value: nastyValue,
        }),
      )
    : fc.record({
        kind: fc.constant('extra' as const),
        key: fc.string({ maxLength: 20 }),
        value: nastyValue,
      });
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/vnd.api+json',
        'APPLICATION/JSON',
        '*/*',
        ';;;',
      ),
    },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const mutated = fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => {
    const body = base();
    for (const m of ms) applyMutation(body, m);
    return {
      text: JSON.stringify(body),
      label: ms.map((m) => `${m.kind} ${'path' in m ? m.path.join('.') : m.key}`).join(', '),
    };
  });
  const broken = fc.oneof(
    fc.constantFrom(
      '{',
      '{"a":',
      '[1,2',
      '{"a":1}}',
      'nul',
      '{"a":1,}',
      "{'a':1}",
      '\u0000',
      '',
      ' ',
      '"\\ud800"',
      '{"a":"\\u0000"}',
      '1e99999',
    ),
    fc.string({ maxLength: 60 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.constant(JSON.stringify({ a: 'x'.repeat(70_000) })),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(mutated, contentType)
        .map(([m, ct]) => ({ payload: m.text, contentType: ct, label: `body: ${m.label}` })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(broken, contentType)
        .map(([text, ct]) => ({ payload: text, contentType: ct, label: 'body: broken or non-object JSON' })),
    },
    {
      weight: 1,
      arbitrary: contentType.map((ct) => ({
        payload: JSON.stringify(base()),
        contentType: ct,
        label: 'body: valid',
      })),
    },
  );
}

/** A path parameter: its sample, or anything nasty, encoded or (for traversal) as is. */
function paramArbitrary(name: string, c: FuzzCredentials): fc.Arbitrary<{ value: string; label: string }> {
  const sample = c.samples[name] ?? SAMPLES[name] ?? '1';
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ value: encodeURIComponent(sample), label: `${name} valid` }) },
    {
      weight: 3,
      arbitrary: nastyString.map((s) => ({
        value: safeEncode(s),
        label: `${name}=${JSON.stringify(s).slice(0, 40)}`,
      })),
    },
    {
      weight: 2,
      arbitrary: nastyNumber.map((n) => ({ value: encodeURIComponent(String(n)), label: `${name}=${n}` })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...TRAVERSALS).map((t) => ({ value: t, label: `${name} traversal ${t}` })),
    },
  );
}

/** encodeURIComponent, with lone surrogates (which it refuses) sent as their bytes would be: %ED%A0%80. */
function safeEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?')).replace(/%3F/g, '%ED%A0%80');
  }
}

function queryArbitrary(op: Operation): fc.Arbitrary<{ query: string; label: string }> {
  const params = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const one = (name: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      {
        weight: 2,
        arbitrary: fc.constant(SAMPLES[name] ?? (name === 'page' || name === 'size' ? '1' : 'true')),
      },
      { weight: 2, arbitrary: nastyString },
      { weight: 2, arbitrary: nastyNumber.map(String) },
      { weight: 1, arbitrary: fc.array(nastyString, { minLength: 2, maxLength: 3 }) },
    );
  const extra = fc.array(fc.tuple(fc.string({ maxLength: 12 }), nastyString), { maxLength: 2 });
  return fc.tuple(fc.tuple(...params.map(one)), extra, fc.boolean()).map(([values, extras, raw]) => {
    const parts: string[] = [];
    params.forEach((name, i) => {
      const v = values[i];
      if (v === null || v === undefined) return;
      for (const x of Array.isArray(v) ? v : [v]) parts.push(`${name}=${raw ? rawQuery(x) : safeEncode(x)}`);
    });
    for (const [k, v] of extras) parts.push(`${safeEncode(k)}=${safeEncode(v)}`);
    return {
      query: parts.length ? `?${parts.join('&')}` : '',
      label: `query ${parts.join('&').slice(0, 80)}`,
    };
  });
}

/** A query value sent as little encoded as a careless client would (only what breaks the URL). */
function rawQuery(s: string): string {
  return safeEncode(s).replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%25/g, '%');
}

function headersArbitrary(
  op: Operation,
  c: FuzzCredentials,
): fc.Arbitrary<{ headers: Record<string, string | string[]>; label: string }> {
  const auth = c.authorization[op.kind];
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(auth) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | string[] | undefined>(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `Bearer ${'a'.repeat(10_000)}`,
        [auth ?? 'x', auth ?? 'x'],
        [auth ?? 'x', 'Bearer wrong'],
        `${auth} trailing`,
        'Basic Zm9vOmJhcg==',
      ),
    },
  );
  const accept = fc.oneof(
    { weight: 8, arbitrary: fc.constant(c.accept[op.kind]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | string[] | undefined>(
        undefined,
        'text/html',
        '*/*',
        'application/json;q=0',
        'application/com.reloadly.giftcards-v9+json',
        [c.accept[op.kind] ?? '*/*', 'text/html'],
        'a'.repeat(5000),
        ',,,;;;',
      ),
    },
  );
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string | string[]>>(
        { 'x-request-id': ['a', 'b'] },
        { 'x-request-id': 'r'.repeat(5000) },
        { 'x-admin-key': ['k1', 'k2'] },
        { 'x-forwarded-for': '1.2.3.4, 5.6.7.8' },
        { 'content-length': '5' },
        { 'x-padding': 'p'.repeat(12_000) },
        { 'accept-encoding': 'gzip, br, zstd' },
        { cookie: 'a=b; '.repeat(500) },
        { 'transfer-encoding': 'chunked' },
      ),
    },
  );
  return fc.tuple(authorization, accept, extra).map(([a, acc, x]) => {
    const headers: Record<string, string | string[]> = { ...x };
    if (a !== undefined) headers.authorization = a;
    if (acc !== undefined) headers.accept = acc;
    const label = [
      a === auth ? null : 'authorization varied',
      acc === c.accept[op.kind] ? null : `accept ${String(acc).slice(0, 30)}`,
      Object.keys(x).join(','),
    ]
      .filter(Boolean)
      .join('; ');
    return { headers, label };
  });
}

export function requestFor(op: Operation, c: FuzzCredentials): fc.Arbitrary<FuzzRequest> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const params = fc.tuple(...names.map((n) => paramArbitrary(n, c)));
  const body = op.hasBody ? bodyArbitrary(op) : fc.constant(null);
  const method = fc.oneof(
    { weight: 15, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
  );
  return fc
    .tuple(method, params, queryArbitrary(op), body, headersArbitrary(op, c))
    .map(([m, ps, q, b, h]) => {
      let i = 0;
      const path = op.path.replace(/\{(\w+)\}/g, () => (ps[i++] as { value: string }).value);
      const headers: Record<string, string | string[]> = {
        host: 'localhost',
        'x-forwarded-proto': 'https',
        ...h.headers,
      };
      if (b?.contentType) headers['content-type'] = b.contentType;
      return {
        method: m,
        url: `${c.prefix[op.kind]}${path}${q.query}`,
        headers,
        ...(b ? { payload: b.payload } : {}),
        label: [
          `${op.kind} ${op.key}`,
          m === op.method ? null : `as ${m}`,
          ...ps.map((p) => (p as { label: string }).label),
          q.label,
          b?.label,
          b?.contentType === 'application/json' ? null : `content-type ${b?.contentType}`,
          h.label,
        ]
          .filter(Boolean)
          .join(' | '),
      };
    });
}

/** Requests for the token endpoint: form or JSON bodies with every field varied. */
export function tokenRequests(c: FuzzCredentials, audiences: string[]): fc.Arbitrary<FuzzRequest> {
  const field = (valid: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<unknown>(valid) },
      { weight: 2, arbitrary: nastyValue },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  const body = fc.record({
    grant_type: field('client_credentials'),
    client_id: field(c.clientId),
    client_secret: field('sk_wrong_secret_guess'),
    audience: fc.oneof(fc.constantFrom<unknown>(...audiences), nastyValue),
  });
  return fc
    .tuple(
      body,
      fc.constantFrom('json', 'form', 'broken', 'text'),
      fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'),
    )
    .map(([b, form, method]) => {
      const defined = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
      const payload =
        form === 'json'
          ? JSON.stringify(defined)
          : form === 'form'
            ? new URLSearchParams(
                Object.entries(defined).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
              ).toString()
            : form === 'broken'
              ? '{"grant_type":'
              : 'grant_type=client_credentials';
      return {
        method,
        url: `${c.prefix.auth}/oauth/token`,
        headers: {
          host: 'localhost',
          'x-forwarded-proto': 'https',
          accept: 'application/json',
          'content-type':
            form === 'form'
              ? 'application/x-www-form-urlencoded'
              : form === 'text'
                ? 'text/plain'
                : 'application/json',
        },
        payload,
        label: `auth POST /oauth/token | ${method} ${form} ${JSON.stringify(defined).slice(0, 120)}`,
      };
    });
}

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ErrorCode } from '../../src/errors/error-codes.ts';
import type { ApiDocs, FieldLimits } from '../../src/http/openapi.ts';
import { GIFTCARD_API_DOCS } from '../../src/modules/giftcards/index.ts';
import { TOPUP_API_DOCS } from '../../src/modules/topups/index.ts';
import { type Answer, AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 12: every limit the services enforce is in the published OpenAPI documents. The ones the
// route schemas leave out (so that the spec's own error code answers, not a generic validation
// error) are written into the documents only, from each operation's `limits`
// (src/http/openapi.ts applyLimits). This file reads each such limit from the published document and
// sends the limit and one step past it: the first is not refused for that field, the second is
// refused with the spec's code, naming the field. A limit written without a probe here fails.

let server: TestServer;
const tokens: Record<string, string> = {};
before(async () => {
  server = await startTestServer();
  const account = await server.admin.createAccount({ environment: 'sandbox', fund: 5000 });
  tokens['/giftcards-sandbox'] = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  tokens['/topups-sandbox'] = await server.admin.token(account, AUDIENCES.topupsSandbox);
});
after(async () => server?.close());

interface Probe {
  /** The spec's code for a value past the limit. */
  code: ErrorCode;
  /** The request around the field (body, or query for a `query.` field). */
  base: Record<string, unknown>;
  /** Path parameters' values. */
  path?: Record<string, string>;
  /** A string of length n that breaks no other rule. */
  ofLength?: (n: number) => string;
  /** For `pattern`: a value it matches and one it does not. */
  matching?: unknown;
  notMatching?: unknown;
  /** An accepted value must answer 200 (else: only not refused for this field). */
  must200?: boolean;
}

const ORDER = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Limits test' };
const giftcardProbes: Record<string, Probe> = {
  'POST /orders body.quantity': { code: 'INVALID_REQUEST', base: ORDER, must200: true },
  'POST /orders body.senderName': {
    code: 'INVALID_REQUEST',
    base: ORDER,
    must200: true,
    ofLength: (n) => 'a'.repeat(n),
    matching: ' a ',
    notMatching: '   ',
  },
  'POST /orders body.recipientEmail': {
    code: 'INVALID_REQUEST',
    base: ORDER,
    must200: true,
    ofLength: (n) => `ada@${'e'.repeat(n - 'ada@.com'.length)}.com`,
    matching: 'ada@example.com',
    notMatching: 'ada@example',
  },
  'POST /orders body.recipientPhoneDetails.countryCode': {
    code: 'INVALID_REQUEST',
    base: ORDER,
    must200: true,
    matching: 'ng',
    notMatching: 'NGA',
  },
  'GET /reports/transactions query.startDate': {
    code: 'INVALID_REQUEST',
    base: {},
    must200: true,
    matching: '2026-1-5 3:04:05',
    notMatching: '2026-01-05T03:04:05',
  },
  'GET /reports/transactions query.endDate': {
    code: 'INVALID_REQUEST',
    base: {},
    must200: true,
    matching: '2026-01-05',
    notMatching: '05/01/2026',
  },
};

const TOPUP = { operatorId: 1001, recipientPhone: { countryCode: 'NG', number: '08031234567' } };
const topupReport = (): Probe => ({
  code: 'INVALID_REQUEST',
  base: {},
  must200: true,
  matching: '2026-01-05T03:04:05Z',
  notMatching: '2026-01-05 03:04:05 UTC',
});
const topupProbes: Record<string, Probe> = {
  // Accepted amounts are only "not INVALID_AMOUNT": the operator's own range may still refuse them.
  'POST /topups body.amount': { code: 'INVALID_AMOUNT', base: TOPUP },
  'POST /operators/fx-rate body.amount': { code: 'INVALID_AMOUNT', base: { operatorId: 1001 } },
  'POST /operators/{operatorId}/fx-rate body.amount': {
    code: 'INVALID_AMOUNT',
    base: {},
    path: { operatorId: '1001' },
  },
  'GET /topups/reports/transactions query.startDate': topupReport(),
  'GET /topups/reports/transactions query.endDate': topupReport(),
  'GET /topups/reports/transactions query.startTime': topupReport(),
  'GET /topups/reports/transactions query.endTime': topupReport(),
};

/** Every documented limit of a product: `METHOD path field` -> its keywords. */
function documentedLimits(docs: ApiDocs): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [op, d] of Object.entries(docs.operations)) {
    if (!d.limits) continue;
    const limits: FieldLimits =
      typeof d.limits === 'function' ? d.limits({ orderMaxQuantity: 10 }) : d.limits;
    for (const [field, keywords] of Object.entries(limits)) out.set(`${op} ${field}`, keywords);
  }
  return out;
}

/** The schema of `field` in the published document (through `$ref`s and nullable `anyOf`s). */
function publishedSchema(doc: any, op: string, field: string): any {
  const deref = (n: any): any => (n?.$ref ? doc.components.schemas[n.$ref.split('/').pop()] : n);
  const nonNull = (n: any): any => {
    const s = deref(n);
    return s?.anyOf ? deref(s.anyOf.find((m: any) => deref(m).type !== 'null')) : s;
  };
  const [method, path] = op.split(' ');
  const operation = doc.paths[path][method.toLowerCase()];
  const [part, first, ...rest] = field.split('.');
  let node =
    part === 'body'
      ? nonNull(operation.requestBody.content['application/json'].schema).properties[first]
      : operation.parameters.find((p: any) => p.in === part && p.name === first).schema;
  for (const name of rest) node = nonNull(node).properties[name];
  return nonNull(node);
}

function setField(target: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (rest.length === 0) return { ...target, [head]: value };
  const inner = (target[head] as Record<string, unknown>) ?? {};
  return { ...target, [head]: setField(inner, rest, value) };
}

/** Sends the probe's request with `field` set to `value`. */
async function send(base: string, op: string, field: string, probe: Probe, value: unknown): Promise<Answer> {
  const [method, template] = op.split(' ');
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => probe.path?.[name] ?? '');
  const [part, ...names] = field.split('.');
  let request = { ...probe.base };
  // A phone's country code travels with a number valid for it.
  if (names[0] === 'recipientPhoneDetails') {
    request = { ...request, recipientPhoneDetails: { countryCode: 'NG', phoneNumber: '08031234567' } };
  }
  request = setField(request, names, value);
  const token = tokens[base];
  if (part === 'query') {
    const query = new URLSearchParams(Object.entries(request).map(([k, v]) => [k, String(v)]));
    return server.http.get(`${base}${path}?${query}`, { token });
  }
  return server.http.call(method, `${base}${path}`, { token, body: request });
}

const refusedFor = (a: Answer, field: string, code: ErrorCode) =>
  a.status === 400 &&
  a.body.errorCode === code &&
  (a.body.details as { field: string }[]).some((d) => d.field.split('.')[0] === field.split('.')[0]);

for (const [base, docs, probes] of [
  ['/giftcards-sandbox', GIFTCARD_API_DOCS, giftcardProbes],
  ['/topups-sandbox', TOPUP_API_DOCS, topupProbes],
] as const) {
  test(`${base}: each limit written into the document is the one the service enforces`, async () => {
    const documented = documentedLimits(docs);
    assert.deepEqual([...documented.keys()].sort(), Object.keys(probes).sort(), 'one probe per limit');
    const doc = (await server.http.get(`${base}/openapi.json`)).body;
    for (const [key, keywords] of documented) {
      const [method, path, field] = key.split(' ');
      const op = `${method} ${path}`;
      const probe: Probe = probes[key];
      const schema = publishedSchema(doc, op, field);
      const name = field.slice(field.indexOf('.') + 1);
      const cases: { what: string; value: unknown; refused: boolean }[] = [];
      for (const keyword of Object.keys(keywords)) {
        const limit = schema[keyword];
        assert.deepEqual(limit, keywords[keyword], `${key}: ${keyword} is in the published document`);
        const n = limit as number;
        const text = (len: number) => {
          assert.ok(probe.ofLength, `${key}: a length probe`);
          return probe.ofLength(len);
        };
        if (keyword === 'maximum')
          cases.push(
            { what: 'maximum', value: n, refused: false },
            { what: 'maximum + 1', value: n + 1, refused: true },
          );
        else if (keyword === 'minimum')
          cases.push(
            { what: 'minimum', value: n, refused: false },
            { what: 'minimum - 1', value: n - 1, refused: true },
          );
        else if (keyword === 'exclusiveMinimum')
          cases.push(
            { what: 'exclusiveMinimum', value: n, refused: true },
            { what: 'exclusiveMinimum + 0.01', value: n + 0.01, refused: false },
          );
        else if (keyword === 'maxLength')
          cases.push(
            { what: 'maxLength', value: text(n), refused: false },
            { what: 'maxLength + 1', value: text(n + 1), refused: true },
          );
        else if (keyword === 'minLength')
          cases.push(
            { what: 'minLength', value: text(n), refused: false },
            { what: 'minLength - 1', value: n > 0 ? text(n - 1) : '', refused: n > 0 },
          );
        else if (keyword === 'pattern') {
          const re = new RegExp(limit as string);
          assert.ok(
            re.test(String(probe.matching)) && !re.test(String(probe.notMatching)),
            `${key}: probe values fit the pattern`,
          );
          cases.push(
            { what: 'matching', value: probe.matching, refused: false },
            { what: 'not matching', value: probe.notMatching, refused: true },
          );
        } else if (keyword === 'type') {
          assert.equal(limit, 'number');
          cases.push(
            { what: 'a number', value: 5, refused: false },
            { what: 'a numeric string', value: '5', refused: true },
          );
        } else assert.fail(`${key}: no probe for the keyword ${keyword}`);
      }
      for (const c of cases) {
        const answer = await send(base, op, field, probe, c.value);
        const what = `${key} ${c.what}: ${answer.status} ${answer.text.slice(0, 300)}`;
        if (c.refused) assert.ok(refusedFor(answer, name, probe.code), what);
        else {
          assert.ok(!refusedFor(answer, name, probe.code), what);
          if (probe.must200) assert.equal(answer.status, 200, what);
        }
      }
    }
  });
}

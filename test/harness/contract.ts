import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The contract check: every response a test receives is validated against the OpenAPI document the
 * server publishes for that base. An operation or status the document does not describe, or a body
 * that breaks the described schema, is a failure. The test harness runs every answer through it.
 */
type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, unknown> } };

export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  problem: string;
}

export function createContractChecker(docs: Record<string, Doc>) {
  const ajv = addFormats.default(
    new Ajv2020.default({ strict: false, allErrors: true, validateFormats: true }),
  );
  for (const [kind, doc] of Object.entries(docs)) {
    ajv.addSchema({ $id: `${kind}.json`, components: doc.components ?? {} });
  }
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
  const operations = Object.entries(docs).flatMap(([kind, doc]) =>
    Object.entries(doc.paths).map(([template, methods]) => ({
      kind,
      template,
      regex: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
      ),
      methods,
    })),
  );

  function schemaFor(kind: string, schema: object) {
    let validate = compiled.get(schema);
    if (!validate) {
      // Local refs (#/components/...) resolve against the document the schema came from.
      const rewritten = JSON.parse(
        JSON.stringify(schema).replace(/"#\/components\//g, `"${kind}.json#/components/`),
      );
      validate = ajv.compile(rewritten);
      compiled.set(schema, validate);
    }
    return validate;
  }

  /** Returns null when the answer is described by the document, else what is wrong. */
  function check(
    kind: string,
    method: string,
    path: string,
    status: number,
    body: unknown,
    contentType: string,
  ): ContractViolation | null {
    const fail = (problem: string) => ({ method, path, status, problem });
    const candidates = operations.filter((o) => o.kind === kind && o.regex.test(path));
    // Prefer a literal segment over a parameter (/operators/countries/X before /operators/{id}).
    candidates.sort(
      (a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length,
    );
    const op = candidates.map((c) => c.methods[method.toLowerCase()]).find(Boolean);
    if (!op) {
      if (status === 404 || status === 405 || status === 400) return null; // unknown paths/methods: checked as envelopes by the suites
      return fail('no operation in the OpenAPI document');
    }
    const response = op.responses[String(status)] ?? op.responses.default;
    if (!response) return fail('status not described');
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return null;
    if (!/json/.test(contentType)) return fail(`described as JSON, answered ${contentType}`);
    const validate = schemaFor(kind, schema);
    if (!validate(body)) return fail(ajv.errorsText(validate.errors, { dataVar: 'body' }));
    return null;
  }

  return { check };
}

export type ContractChecker = ReturnType<typeof createContractChecker>;

/** Which published document describes a path, and the path below its base. */
export const BASE_PREFIXES: [string, string][] = [
  ['/giftcards-sandbox', 'giftcards'],
  ['/giftcards', 'giftcards'],
  ['/topups-sandbox', 'topups'],
  ['/topups', 'topups'],
  ['/auth', 'auth'],
  ['/admin', 'admin'],
];

export function baseOf(path: string): { kind: string; rest: string } | null {
  const bare = path.split('?')[0];
  for (const [prefix, kind] of BASE_PREFIXES) {
    if (bare === prefix || bare.startsWith(`${prefix}/`))
      return { kind, rest: bare.slice(prefix.length) || '/' };
  }
  return null;
}

import type { HttpClient } from '../harness/client.ts';

/**
 * The operations of a base, read from its published OpenAPI document (`{base}/openapi.json`), so the
 * security suites cover every route the server publishes, a new one included, without a list here.
 *
 * @example
 * const ops = await operationsOf(server.http, '/topups-sandbox', 'topups');
 * ops.find((o) => o.key === 'POST /topups')?.scope; // 'send-topups'
 */
export interface Operation {
  kind: string;
  method: string;
  /** The path template as published: `/reports/transactions/{transactionId}`. */
  path: string;
  /** `METHOD /path` */
  key: string;
  /** The bearer scope the operation needs (product bases), null elsewhere. */
  scope: string | null;
  parameters: { in: string; name: string; required?: boolean; schema?: any }[];
  requiredQuery: string[];
  hasBody: boolean;
  bodySchema: any;
  /** The whole document, for resolving `$ref`s. */
  document: any;
}

/** Accept headers the product bases serve (the vendor media type of each). */
export const PRODUCT_ACCEPT: Record<string, Record<string, string>> = {
  giftcards: { accept: 'application/com.reloadly.giftcards-v1+json' },
  topups: { accept: 'application/com.reloadly.topups-v1+json' },
  admin: { accept: 'application/json' },
  auth: { accept: 'application/json' },
};

export async function operationsOf(http: HttpClient, base: string, kind: string): Promise<Operation[]> {
  const answer = await http.get(`${base}/openapi.json`);
  if (answer.status !== 200) throw new Error(`${base}/openapi.json: ${answer.status}`);
  const document = answer.body;
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(document.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const parameters = (op.parameters ?? []) as Operation['parameters'];
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      ops.push({
        kind,
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        scope: op.security?.[0]?.bearer?.[0] ?? null,
        parameters,
        requiredQuery: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        hasBody: Boolean(op.requestBody),
        bodySchema: resolve(document, body),
        document,
      });
    }
  }
  return ops;
}

/** Replaces local `$ref`s (`#/components/schemas/X`) by what they point to, recursively. */
export function resolve(document: any, schema: any, depth = 0): any {
  if (schema === null || typeof schema !== 'object' || depth > 20) return schema;
  if (Array.isArray(schema)) return schema.map((s) => resolve(document, s, depth + 1));
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce((node: any, part: string) => node?.[part], document);
    return resolve(document, target, depth + 1);
  }
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) out[k] = resolve(document, v, depth + 1);
  return out;
}

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../harness/server.ts';

// The SDK against the OpenAPI documents the server publishes: every operation of both products and
// of the admin API has an SDK method (aliases and exceptions named below), and the type that method
// returns declares every property the operation's 200 schema lists, at every depth. The types are read by the TypeScript compiler from
// the SDK source, so a field the server sends and the SDK forgets fails here.
const SDK_INDEX = join(import.meta.dirname, '..', '..', 'sdk', 'src', 'index.ts');

/** Operation -> the SDK method that calls it (for a paged list, its items are compared). */
type DocumentKind = 'giftcards' | 'topups' | 'admin';
const KINDS = ['giftcards', 'topups', 'admin'] as const;
const DOCUMENT_PATHS: Record<DocumentKind, string> = {
  giftcards: '/giftcards-sandbox/openapi.json',
  topups: '/topups-sandbox/openapi.json',
  admin: '/admin/openapi.json',
};

const METHODS: Record<DocumentKind, Record<string, string>> = {
  giftcards: {
    'GET /accounts/balance': 'GiftCards["balance"]["get"]',
    'GET /product-categories': 'GiftCards["categories"]["list"]',
    'GET /countries': 'GiftCards["countries"]["list"]',
    'GET /countries/{countrycode}': 'GiftCards["countries"]["get"]',
    'GET /countries/{countrycode}/products': 'GiftCards["countries"]["products"]',
    'GET /products': 'GiftCards["products"]["list"]',
    'GET /products/{productId}': 'GiftCards["products"]["get"]',
    'GET /products/{productId}/redeem-instructions': 'GiftCards["redeemInstructions"]["forProduct"]',
    'GET /redeem-instructions': 'GiftCards["redeemInstructions"]["list"]',
    'GET /brands/{brandId}/redeem-instructions': 'GiftCards["redeemInstructions"]["forBrand"]',
    'GET /fx-rate': 'GiftCards["fx"]["rate"]',
    'GET /discounts': 'GiftCards["discounts"]["list"]',
    'GET /products/{productId}/discounts': 'GiftCards["discounts"]["forProduct"]',
    'GET /reports/transactions': 'GiftCards["transactions"]["list"]',
    'GET /reports/transactions/{transactionId}': 'GiftCards["transactions"]["get"]',
    'POST /orders': 'GiftCards["orders"]["create"]',
    'GET /orders/transactions/{transactionId}/cards': 'GiftCards["orders"]["cards"]',
    'GET /orders/transactions/{transactionId}/deliveries': 'GiftCards["deliveries"]["list"]',
    'POST /orders/transactions/{transactionId}/deliveries': 'GiftCards["deliveries"]["resend"]',
  },
  topups: {
    'GET /accounts/balance': 'Topups["balance"]["get"]',
    'POST /topups': 'Topups["orders"]["create"]',
    'GET /countries': 'Topups["countries"]["list"]',
    'GET /countries/{countryIsoCode}': 'Topups["countries"]["get"]',
    'GET /operators': 'Topups["operators"]["list"]',
    'GET /operators/{operatorId}': 'Topups["operators"]["get"]',
    'GET /operators/auto-detect/phone/{phone}/countries/{iso}': 'Topups["operators"]["autoDetect"]',
    'GET /operators/countries/{countryIsoCode}': 'Topups["operators"]["byCountry"]',
    'POST /operators/fx-rate': 'Topups["operators"]["fxRate"]',
    'GET /operators/commissions': 'Topups["commissions"]["list"]',
    'GET /operators/{operatorId}/commissions': 'Topups["commissions"]["forOperator"]',
    'GET /promotions': 'Topups["promotions"]["list"]',
    'GET /promotions/{promotionId}': 'Topups["promotions"]["get"]',
    'GET /promotions/country-codes/{countryCode}': 'Topups["promotions"]["byCountry"]',
    'GET /promotions/operators/{operatorId}': 'Topups["promotions"]["byOperator"]',
    'GET /topups/reports/transactions': 'Topups["transactions"]["list"]',
    'GET /topups/reports/transactions/{transactionId}': 'Topups["transactions"]["get"]',
  },
  admin: {
    'POST /accounts': 'Admin["accounts"]["create"]',
    'GET /accounts': 'Admin["accounts"]["list"]',
    'GET /accounts/{accountId}': 'Admin["accounts"]["show"]',
    'PATCH /accounts/{accountId}': 'Admin["accounts"]["setLimits"]',
    'POST /accounts/{accountId}/activate': 'Admin["accounts"]["activate"]',
    'POST /accounts/{accountId}/deactivate': 'Admin["accounts"]["deactivate"]',
    'POST /accounts/{accountId}/fund': 'Admin["accounts"]["fund"]',
    'POST /accounts/{accountId}/adjust': 'Admin["accounts"]["adjust"]',
    'GET /accounts/{accountId}/ledger': 'Admin["accounts"]["ledger"]',
    'PUT /accounts/{accountId}/balance-threshold': 'Admin["webhooks"]["balanceThreshold"]',
    'POST /accounts/{accountId}/credentials': 'Admin["credentials"]["create"]',
    'POST /credentials/{clientId}/revoke': 'Admin["credentials"]["revoke"]',
    'POST /accounts/{accountId}/users': 'Admin["users"]["invite"]',
    'GET /accounts/{accountId}/users': 'Admin["users"]["list"]',
    'GET /audit': 'Admin["audit"]["list"]',
    'GET /audit.csv': 'Admin["audit"]["csv"]',
    'GET /audit/verify': 'Admin["audit"]["verify"]',
    'GET /catalog/export': 'Admin["catalog"]["export"]',
    'POST /catalog/import': 'Admin["catalog"]["import"]',
    'POST /catalog/sync/{product}': 'Admin["catalog"]["sync"]',
    'GET /fx-rates': 'Admin["fx"]["list"]',
    'PUT /fx-rates/{currencyCode}': 'Admin["fx"]["set"]',
    'GET /ledger/audit': 'Admin["ledger"]["audit"]',
    'GET /backup': 'Admin["backup"]["download"]',
    'POST /operators': 'Admin["operators"]["create"]',
    'GET /operators': 'Admin["operators"]["list"]',
    'POST /products/{productId}/activate': 'Admin["products"]["activate"]',
    'POST /products/{productId}/deactivate': 'Admin["products"]["deactivate"]',
    'PUT /products/{productId}/provider': 'Admin["products"]["setProvider"]',
    'POST /topup-operators/{operatorId}/activate': 'Admin["topupOperators"]["activate"]',
    'POST /topup-operators/{operatorId}/deactivate': 'Admin["topupOperators"]["deactivate"]',
    'POST /products/{productId}/stock': 'Admin["stock"]["import"]',
    'GET /stock': 'Admin["stock"]["show"]',
    'GET /upstreams': 'Admin["upstreams"]["show"]',
    'PUT /upstreams/{product}': 'Admin["upstreams"]["set"]',
    'GET /upstreams/{product}': 'Admin["upstreams"]["get"]',
    'DELETE /upstreams/{product}': 'Admin["upstreams"]["remove"]',
    'POST /webhooks': 'Admin["webhooks"]["add"]',
    'GET /webhooks': 'Admin["webhooks"]["list"]',
    'DELETE /webhooks/{endpointId}': 'Admin["webhooks"]["remove"]',
    'GET /webhooks/{endpointId}/deliveries': 'Admin["webhooks"]["deliveries"]',
    'POST /webhooks/deliveries/{deliveryId}/replay': 'Admin["webhooks"]["replay"]',
    'GET /bank-details': 'Admin["funding"]["bankDetails"]',
    'PUT /bank-details/{currencyCode}': 'Admin["funding"]["setBankDetails"]',
    'DELETE /bank-details/{currencyCode}': 'Admin["funding"]["removeBankDetails"]',
    'GET /funding/transfers': 'Admin["funding"]["transfers"]',
    'POST /funding/transfers/{transferId}/confirm': 'Admin["funding"]["confirm"]',
    'POST /funding/transfers/{transferId}/reject': 'Admin["funding"]["reject"]',
  },
};

/** Operations with no SDK method, and why. */
const NOT_IN_SDK: Record<string, string> = {
  'admin GET /metrics': 'Prometheus text for a scraper, not JSON for a program',
};

/** Compatibility aliases the server keeps for other clients; the SDK calls the operation named. */
const ALIASES: Record<string, string> = {
  'topups GET /promotions/countries/{countryCode}': 'GET /promotions/country-codes/{countryCode}',
  'topups POST /operators/{operatorId}/fx-rate': 'POST /operators/fx-rate',
};

/** The top-up page wrapper's fields the SDK's Page renames or leaves out, and why. */
const PAGE_FIELDS_NOT_KEPT: Record<string, string> = {
  number: 'Page.page, 1-based',
  numberOfElements: 'Page.content.length',
  pageable: 'the same figures again',
  sort: 'lists are not sortable by this wrapper',
  empty: 'Page.content.length === 0',
};

/** Walks a response schema and an SDK type together; returns the paths of undeclared properties. */
function missingProperties(
  doc: any,
  schema: any,
  type: ts.Type,
  checker: ts.TypeChecker,
  path: string,
): string[] {
  schema = resolve(doc, schema);
  if (!schema || typeof schema !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (branches.length > 0)
    return branches.flatMap((b: any) => missingProperties(doc, b, type, checker, path));
  const target = checker.getNonNullableType(type);
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t: string) => t !== 'null',
  );
  if (types.includes('array') && schema.items) {
    const element = checker.getIndexTypeOfType(target, ts.IndexKind.Number);
    if (!element) return [`${path} (the SDK type is not an array)`];
    return missingProperties(doc, schema.items, element, checker, `${path}[]`);
  }
  const missing: string[] = [];
  // A record type (`Record<string, T>`) declares every name as T.
  const index = checker.getIndexInfoOfType(target, ts.IndexKind.String);
  for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
    const symbol = checker.getPropertyOfType(target, name);
    if (!symbol && index) {
      missing.push(...missingProperties(doc, property, index.type, checker, `${path}.${name}`));
      continue;
    }
    if (!symbol) {
      missing.push(`${path}.${name}`);
      continue;
    }
    const propertyType = checker.getTypeOfSymbol(symbol);
    missing.push(...missingProperties(doc, property, propertyType, checker, `${path}.${name}`));
  }
  return missing;
}

function resolve(doc: any, schema: any): any {
  while (schema && typeof schema.$ref === 'string') {
    schema = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return schema;
}

function successSchema(doc: any, operation: any): any {
  const [status] = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s));
  const content = resolve(doc, operation.responses?.[status])?.content ?? {};
  const [media] = Object.values<any>(content);
  return media?.schema;
}

describe('the SDK covers the OpenAPI documents', () => {
  let server: TestServer;
  let probeDir: string;
  const docs: Record<string, any> = {};

  before(async () => {
    server = await startTestServer();
    for (const product of KINDS) {
      const answer = await server.http.get(DOCUMENT_PATHS[product]);
      assert.equal(answer.status, 200);
      docs[product] = answer.body;
    }
    probeDir = await mkdtemp(join(tmpdir(), 'airgift-sdk-openapi-'));
  });
  after(async () => {
    await server.close();
    await rm(probeDir, { recursive: true, force: true });
  });

  test('every operation of both products and of the admin API has an SDK method', () => {
    const uncovered: string[] = [];
    for (const product of KINDS) {
      for (const [path, item] of Object.entries<any>(docs[product].paths)) {
        for (const method of Object.keys(item).filter((m) => m !== 'parameters')) {
          const operation = `${method.toUpperCase()} ${path}`;
          if (path.endsWith('/openapi.json') || path.endsWith('/docs')) continue;
          const key = `${product} ${operation}`;
          if (METHODS[product][operation] || ALIASES[key] || NOT_IN_SDK[key]) continue;
          uncovered.push(`${product} ${operation}`);
        }
      }
    }
    assert.deepEqual(uncovered, [], 'operations without an SDK method (add one, and a line to METHODS)');
  });

  test("every property of every 200 schema is declared by the SDK method's return type", async () => {
    // One probe file: a type alias per operation, the method's awaited result (a list's item type).
    const lines = [
      `import type { Admin, GiftCards, Topups, Page } from ${JSON.stringify(SDK_INDEX.replace(/\.ts$/, '.js'))};`,
      // A bare array result is `E[] & { requestId }`: compare its element type E.
      'type Plain<T> = T extends readonly (infer E)[] ? E[] : T;',
      'type Result<F> = F extends (...args: any[]) => infer R ? Plain<Awaited<R>> : never;',
      'type Item<F> = Result<F> extends Page<infer T> ? T : never;',
    ];
    const probes: Array<{ name: string; product: string; operation: string }> = [];
    for (const product of KINDS) {
      for (const [operation, method] of Object.entries(METHODS[product])) {
        const name = `P${probes.length}`;
        lines.push(
          `export type ${name} = Result<${method}>;`,
          `export type ${name}Items = Item<${method}>[];`,
        );
        probes.push({ name, product, operation });
      }
    }
    const probeFile = join(probeDir, 'probe.ts');
    await writeFile(probeFile, `${lines.join('\n')}\n`);
    const program = ts.createProgram([probeFile], {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      noEmit: true,
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(diagnostics, [], 'the probe file does not compile');
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(probeFile)!;
    const aliasType = (name: string) => {
      const declaration = source.statements.find(
        (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
      )!;
      return checker.getTypeAtLocation(declaration.name);
    };

    const missing: string[] = [];
    for (const probe of probes) {
      const doc = docs[probe.product];
      const [verb, path] = probe.operation.split(' ');
      const operation = doc.paths[path]?.[verb.toLowerCase()];
      assert.ok(operation, `${probe.product} ${probe.operation} is not in the document`);
      const answer = resolve(doc, successSchema(doc, operation));
      const where = `${probe.product} ${probe.operation}`;
      // An answer in either of an account's shapes (docs/compatibility.md: a bare list or the
      // wrapper): each shape against the method's type.
      const shapes = answer?.oneOf?.some((b: any) => resolve(doc, b)?.properties?.content)
        ? answer.oneOf.map((b: any) => resolve(doc, b))
        : [answer];
      for (const schema of shapes) {
        if (schema?.properties?.content) {
          // The top-up wrapper: its items against the list's item type, its figures against Page.
          const page = aliasType(probe.name);
          for (const field of Object.keys(schema.properties)) {
            if (field === 'content' || PAGE_FIELDS_NOT_KEPT[field]) continue;
            if (!checker.getPropertyOfType(page, field)) missing.push(`${where}: Page.${field}`);
          }
          missing.push(
            ...missingProperties(
              doc,
              schema.properties.content,
              aliasType(`${probe.name}Items`),
              checker,
              where,
            ),
          );
        } else if (checker.getPropertyOfType(aliasType(probe.name), 'nextPage')) {
          missing.push(...missingProperties(doc, schema, aliasType(`${probe.name}Items`), checker, where));
        } else {
          missing.push(...missingProperties(doc, schema, aliasType(probe.name), checker, where));
        }
      }
    }
    assert.deepEqual(missing, [], 'properties the server sends that the SDK types do not declare');
  });

  test('the walk notices a missing property (it can fail)', () => {
    const file = ts.createSourceFile(
      'x.ts',
      'export type T = { a: number; b: { c: string } };',
      ts.ScriptTarget.ES2022,
    );
    const host = ts.createCompilerHost({});
    const original = host.getSourceFile;
    host.getSourceFile = (name, ...rest) => (name === 'x.ts' ? file : original.call(host, name, ...rest));
    const program = ts.createProgram(['x.ts'], { noLib: true, types: [] }, host);
    const checker = program.getTypeChecker();
    const alias = program.getSourceFile('x.ts')!.statements[0] as ts.TypeAliasDeclaration;
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'object', properties: { c: {}, d: {} } }, e: {} },
    };
    assert.deepEqual(missingProperties({}, schema, checker.getTypeAtLocation(alias.name), checker, 'T'), [
      'T.b.d',
      'T.e',
    ]);
  });
});

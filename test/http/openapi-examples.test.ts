import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 12: every operation of the product documents carries one example request and answer,
// recorded from the app (scripts/write-openapi-examples.ts), and every example fits its schema. A
// route or schema change that the recorded examples no longer match fails here: record them again
// with `npm run openapi:examples`.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

function validatorFor(doc: any) {
  const ajv = addFormats.default(new Ajv2020.default({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'doc.json', components: doc.components });
  return (schema: object, value: unknown): string | null => {
    const rewritten = JSON.parse(
      JSON.stringify(schema).replace(/"#\/components\//g, '"doc.json#/components/'),
    );
    const validate = ajv.compile(rewritten);
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
}

for (const base of ['/giftcards-sandbox', '/topups-sandbox']) {
  test(`${base}: every operation has a recorded example that fits its schemas`, async () => {
    const doc = (await server.http.get(`${base}/openapi.json`)).body;
    const check = validatorFor(doc);
    const problems: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        const ok = op.responses['200'].content['application/json'];
        if (ok.example === undefined) problems.push(`${where}: no example answer`);
        else {
          const wrong = check(ok.schema, ok.example);
          if (wrong) problems.push(`${where} answer: ${wrong}`);
        }
        const body = op.requestBody?.content['application/json'];
        if (body) {
          if (body.example === undefined) problems.push(`${where}: no example request body`);
          else {
            const wrong = check(body.schema, body.example);
            if (wrong) problems.push(`${where} request: ${wrong}`);
          }
        }
        for (const p of op.parameters ?? []) {
          if (p.in === 'path' && p.example === undefined)
            problems.push(`${where}: no example for {${p.name}}`);
          if (p.example !== undefined) {
            const wrong = check(p.schema, p.example);
            if (wrong) problems.push(`${where} ${p.name}: ${wrong}`);
          }
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          for (const [code, example] of Object.entries<any>(
            response.content?.['application/json']?.examples ?? {},
          )) {
            const wrong = check(response.content['application/json'].schema, example.value);
            if (wrong) problems.push(`${where} ${status} ${code}: ${wrong}`);
          }
        }
      }
    }
    assert.ok(operations >= 17);
    assert.deepEqual(problems, []);
  });
}

test('a recorded example is a real answer: the order example is the transaction the order answered', async () => {
  const doc = (await server.http.get('/giftcards-sandbox/openapi.json')).body;
  const order = doc.paths['/orders'].post;
  const request = order.requestBody.content['application/json'].example;
  const answer = order.responses['200'].content['application/json'].example;
  assert.equal(answer.product.productId, request.productId);
  assert.equal(answer.customIdentifier, request.customIdentifier);
  assert.equal(answer.status, 'SUCCESSFUL');
  const cards = doc.paths['/orders/transactions/{transactionId}/cards'].get;
  assert.equal(String(cards.parameters[0].example), String(answer.transactionId));
});

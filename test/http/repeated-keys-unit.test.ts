import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repeatedKey } from '../../src/http/repeated-keys.ts';

// The one-pass scanner behind the 400 for a repeated JSON key (http/repeated-keys.ts), on texts
// JSON.parse accepts; test/security/repeated-keys.test.ts sends such bodies to the server.
test('finds the first repeated key of any object, as a path', () => {
  const cases: [string, string | null][] = [
    ['{"quantity":1,"quantity":3}', 'quantity'],
    ['{"a":{"b":1,"b":2}}', 'a.b'],
    ['{"items":[1,{"x":"a,b","y":{"x":1}},{"z":1,"z":2}]}', 'items[2].z'],
    ['[[{"k":1}],{"k":1,"m":{"k":1},"k":2}]', '[1].k'],
    ['{"quan\\u0074ity":1,"quantity":3}', 'quantity'],
    ['{ "a" : 1 ,\n "a" : 2 }', 'a'],
  ];
  for (const [text, path] of cases) assert.equal(repeatedKey(text), path, text);
});

test('same key in different objects, keys inside strings, escapes: no repeat', () => {
  for (const text of [
    '[{"id":1},{"id":1}]',
    '{"a":{"id":1},"b":{"id":1}}',
    '{"a":"\\"a\\":1","b":"{\\"a\\":2}"}',
    '{"a":[],"b":{},"c":"}","a\\\\":1}',
    '{"name":"name"}',
    '"text"',
    '12',
    '{}',
  ]) {
    assert.equal(repeatedKey(text), null, text);
  }
});

test('costs well under a microsecond or two per order body', (t) => {
  const body =
    '{"productId":11,"quantity":1,"unitPrice":10,"senderName":"Ada","recipientEmail":"a@example.com","customIdentifier":"order-123456"}';
  for (let i = 0; i < 20_000; i++) repeatedKey(body);
  const n = 100_000;
  const started = performance.now();
  for (let i = 0; i < n; i++) repeatedKey(body);
  const us = ((performance.now() - started) * 1000) / n;
  t.diagnostic(`${us.toFixed(2)} us per ${body.length}-byte order body`);
  // Loose (a loaded machine): the order itself costs ~360 us of CPU.
  assert.ok(us < 20, `${us} us`);
});

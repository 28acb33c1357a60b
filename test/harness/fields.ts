import assert from 'node:assert/strict';

/**
 * The one field-shape check of the suites. `spec` names each field and the kinds it may have, joined
 * by `|`: `integer`, `number` (integers count), `string`, `boolean`, `array`, `object` (not an array,
 * not null), `null`, or `any` (present, whatever its value). `assertFields` allows fields beyond
 * `spec` (compatibility aliases); `assertExactFields` allows none (a spec table, field for field).
 *
 * @example
 * assertFields(body, { transactionId: 'integer', pinDetail: 'object|null' }, 'top-up');
 * assertExactFields(category, { id: 'integer', name: 'string' }, 'category');
 */
export type FieldSpec = Record<string, string>;

function kindsOf(value: unknown): string[] {
  if (value === null) return ['null', 'any'];
  if (Array.isArray(value)) return ['array', 'any'];
  if (typeof value === 'number')
    return Number.isInteger(value) ? ['integer', 'number', 'any'] : ['number', 'any'];
  return [typeof value, 'any'];
}

function check(value: unknown, spec: FieldSpec, where: string, exact: boolean): void {
  const at = where ? `${where}: ` : '';
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${at}not an object`);
  const object = value as Record<string, unknown>;
  if (exact) assert.deepEqual(Object.keys(object).sort(), Object.keys(spec).sort(), `${at}fields`);
  for (const [field, kinds] of Object.entries(spec)) {
    assert.ok(field in object, `${at}${field} is missing`);
    assert.ok(
      kindsOf(object[field]).some((k) => kinds.split('|').includes(k)),
      `${at}${field} is ${JSON.stringify(object[field])}, expected ${kinds}`,
    );
  }
}

export function assertFields(value: unknown, spec: FieldSpec, where = ''): void {
  check(value, spec, where, false);
}

export function assertExactFields(value: unknown, spec: FieldSpec, where = ''): void {
  check(value, spec, where, true);
}

/** Every element of `list` passes `check`, and there is at least one: an empty list proves nothing. */
export function assertEvery<T>(list: readonly T[], check: (item: T) => boolean, what: string): void {
  assert.ok(list.length > 0, `${what}: the list is empty`);
  const failing = list.filter((item) => !check(item));
  assert.deepEqual(failing, [], `${what}: ${failing.length} of ${list.length} fail`);
}

/** `balanceInfo` of a gift card or top-up transaction: the same fields in both products. */
export const BALANCE_INFO_FIELDS: FieldSpec = {
  oldBalance: 'number',
  newBalance: 'number',
  cost: 'number',
  currencyCode: 'string',
  currencyName: 'string',
  updatedAt: 'string',
};

/** The one error envelope (decisions §3): its six fields, the code, and the link to the code on the errors page. */
export function assertErrorEnvelope(body: any, code: string): void {
  assert.deepEqual(Object.keys(body).sort(), [
    'details',
    'errorCode',
    'infoLink',
    'message',
    'path',
    'timeStamp',
  ]);
  assert.equal(body.errorCode, code);
  assert.ok(String(body.infoLink).endsWith(`/docs/errors#${code}`), `infoLink ${body.infoLink}`);
}

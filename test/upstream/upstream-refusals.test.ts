import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusalOf, type UpstreamAnswer } from '../../src/modules/upstream/index.ts';

// What an upstream's refusal becomes for our caller (decisions: Upstream, refusals): the order's own
// refusals keep their code and status; refusals of the operator's account there become a 503.
const answered = (status: number, errorCode: string | null, message = 'upstream words') =>
  ({ kind: 'answered', status, body: { errorCode, message }, errorCode, message }) as Extract<
    UpstreamAnswer,
    { kind: 'answered' }
  >;

test("a refusal of the order keeps the upstream's code, status and words", () => {
  for (const [status, code] of [
    [400, 'TOPUP_TRANSACTION_FAILED'],
    [400, 'INVALID_REQUEST'],
    [422, 'UNPROCCESSABLE_ENTITY'],
    [422, 'OPERATOR_NOT_IN_SERVICE'],
  ] as const) {
    const r = refusalOf(answered(status, code));
    assert.equal(r.error.code, code);
    assert.equal(r.error.status, status);
    assert.equal(r.error.message, 'upstream words');
    assert.equal(r.ours, false);
  }
});

test('INSUFFICIENT_BALANCE at the upstream: 503 with Retry-After, flagged as ours, not the caller balance code', () => {
  const r = refusalOf(answered(403, 'INSUFFICIENT_BALANCE'));
  assert.equal(r.error.code, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  assert.equal(r.error.status, 503);
  assert.equal(r.error.headers['Retry-After'], '60');
  assert.equal(r.insufficientBalance, true);
  assert.equal(r.ours, true);
  assert.match(r.description, /403 INSUFFICIENT_BALANCE/);
});

test("the operator's account there (auth, scope, limits, rate) is not the caller's doing: 503", () => {
  for (const [status, code] of [
    [401, 'AUTHENTICATION_FAILURE'],
    [403, 'NOT_AUTHORIZED'],
    [403, 'INACTIVE_ACCOUNT'],
    [403, 'MAX_DAILY_TRANSACTION_COUNT_REACHED'],
    [429, 'RATE_LIMIT_REACHED'],
    [401, null],
  ] as const) {
    const r = refusalOf(answered(status, code));
    assert.equal(r.error.code, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT', `${status} ${code}`);
    assert.equal(r.ours, true);
    assert.equal(r.insufficientBalance, false);
  }
});

test('503 TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT is passed on; unknown codes by status', () => {
  const busy = refusalOf(answered(503, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT'));
  assert.equal(busy.error.code, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
  assert.equal(busy.ours, false);
  // our order was refunded and keeps its customIdentifier: the answer must not echo the supplier's
  // "retry with the same customIdentifier"
  assert.match(busy.error.message, /refunded.*new customIdentifier/);
  assert.doesNotMatch(busy.error.message, /upstream words/);
  assert.equal(refusalOf(answered(400, 'SOMETHING_NEW')).error.code, 'INVALID_REQUEST');
  assert.equal(refusalOf(answered(404, 'PRODUCT_GONE')).error.code, 'RESOURCE_NOT_FOUND');
  assert.equal(refusalOf(answered(409, null)).error.code, 'UNPROCCESSABLE_ENTITY');
  // a known code with another status than ours is not trusted as that code
  assert.equal(refusalOf(answered(422, 'INVALID_REQUEST')).error.code, 'UNPROCCESSABLE_ENTITY');
});

import assert from 'node:assert/strict';
import { PRODUCT_ACCEPT } from '../harness/client.ts';
import { assertFields, BALANCE_INFO_FIELDS } from '../harness/fields.ts';

/** Shared pieces of the top-up suites (a caller is `server.caller('topups')`): field-type checks. */
export const VENDOR_ACCEPT = PRODUCT_ACCEPT.topups;

export { assertFields } from '../harness/fields.ts';

export const PAGED_FIELDS = {
  content: 'array',
  first: 'boolean',
  last: 'boolean',
  number: 'integer',
  numberOfElements: 'integer',
  size: 'integer',
  totalElements: 'integer',
  totalPages: 'integer',
  pageable: 'object',
  sort: 'object',
};

export function assertPaged(body: Record<string, unknown>) {
  assertFields(body, PAGED_FIELDS, 'page.');
  assertFields(body.pageable as Record<string, unknown>, {
    sort: 'object',
    pageSize: 'integer',
    pageNumber: 'integer',
    offset: 'integer',
    paged: 'boolean',
    unpaged: 'boolean',
  });
  assertFields(body.sort as Record<string, unknown>, { unsorted: 'boolean', sorted: 'boolean' });
}

export const OPERATOR_FIELDS = {
  operatorId: 'integer',
  name: 'string',
  bundle: 'boolean',
  data: 'boolean',
  pin: 'boolean',
  supportsLocalAmounts: 'boolean',
  denominationType: 'string',
  senderCurrencyCode: 'string',
  senderCurrencySymbol: 'string',
  destinationCurrencyCode: 'string',
  destinationCurrencySymbol: 'string',
  commission: 'number',
  internationalDiscount: 'number',
  localDiscount: 'number',
  mostPopularAmount: 'number|null',
  mostPopularLocalAmount: 'number|null',
  minAmount: 'number|null',
  maxAmount: 'number|null',
  localMinAmount: 'number|null',
  localMaxAmount: 'number|null',
  country: 'object',
  fx: 'object',
  logoUrls: 'array',
  fixedAmounts: 'array',
  fixedAmountsDescriptions: 'object',
  localFixedAmounts: 'array',
  localFixedAmountsDescriptions: 'object',
  promotions: 'array',
};

export function assertOperator(o: Record<string, any>) {
  assertFields(o, OPERATOR_FIELDS, `operator ${o.operatorId}.`);
  assert.ok(o.operatorId > 0);
  assert.ok(['FIXED', 'RANGE'].includes(o.denominationType));
  assert.equal(o.commission, o.internationalDiscount);
  assertFields(o.country, { isoName: 'string', name: 'string' });
  assertFields(o.fx, { rate: 'number', currencyCode: 'string' });
  assert.equal(o.logoUrls.length, 3);
  if (o.denominationType === 'RANGE') {
    assert.equal(typeof o.minAmount, 'number');
    assert.equal(typeof o.maxAmount, 'number');
    assert.deepEqual(o.fixedAmounts, []);
  } else {
    assert.ok(o.fixedAmounts.length > 0);
    assert.equal(o.minAmount, null);
  }
  assert.ok(!('suggestedAmounts' in o) && !('suggestedAmountsMap' in o));
}

export const TRANSACTION_FIELDS = {
  transactionId: 'integer',
  status: 'string',
  operatorTransactionId: 'string|null',
  customIdentifier: 'string|null',
  recipientPhone: 'string|null',
  senderPhone: 'string|null',
  countryCode: 'string',
  operatorId: 'integer',
  operatorName: 'string',
  discount: 'number',
  discountCurrencyCode: 'string',
  requestedAmount: 'number',
  requestedAmountCurrencyCode: 'string',
  deliveredAmount: 'number',
  deliveredAmountCurrencyCode: 'string',
  transactionDate: 'string',
  balanceInfo: 'object',
  pinDetail: 'object|null',
  links: 'array',
};

export function assertTransaction(t: Record<string, any>) {
  assertFields(t, TRANSACTION_FIELDS, `transaction ${t.transactionId}.`);
  assert.match(t.transactionDate, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.ok(['SUCCESSFUL', 'PROCESSING', 'REFUNDED'].includes(t.status));
  assertFields(t.balanceInfo, BALANCE_INFO_FIELDS);
  assert.ok(t.links.some((l: any) => l.rel === 'self' && typeof l.href === 'string'));
}

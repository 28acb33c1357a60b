/**
 * Valid values for the security suites: path and required query parameters by name, and a request
 * body that passes validation per operation (`<kind> <METHOD> <path>`). A new operation whose
 * parameter has no sample makes the suites fail with a message naming it.
 *
 * @example
 * SAMPLES.operatorId; // '1001'
 * BODIES['topups POST /topups']?.(); // { operatorId: 1001, amount: 10, recipientPhone: {...} }
 */
export const SAMPLES: Record<string, string> = {
  productId: '1840',
  brandId: '1',
  countrycode: 'US',
  countryCode: 'NG',
  countryIsoCode: 'NG',
  operatorId: '1001',
  promotionId: '1',
  phone: '08031234567',
  iso: 'NG',
  currencyCode: 'EUR',
  amount: '10',
};

let phoneSeq = 0;
/** A fresh Nigerian mobile number per call (the recent-recharge rule refuses repeats). */
export const ngPhone = () => ({
  countryCode: 'NG',
  number: `0803${String(10_000_000 + ++phoneSeq).slice(1)}`,
});

export const BODIES: Record<string, () => Record<string, unknown>> = {
  'giftcards POST /orders': () => ({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' }),
  'topups POST /topups': () => ({ operatorId: 1001, amount: 10, recipientPhone: ngPhone() }),
  'topups POST /operators/fx-rate': () => ({ operatorId: 1001, amount: 10 }),
  'topups POST /operators/{operatorId}/fx-rate': () => ({ amount: 10 }),
  'admin POST /accounts': () => ({ name: 'Fuzz', currency: 'USD', country: 'US', environment: 'sandbox' }),
  'admin POST /accounts/{accountId}/fund': () => ({ environment: 'sandbox', amount: 5, reason: 'fuzz' }),
  'admin POST /accounts/{accountId}/adjust': () => ({ environment: 'sandbox', amount: 5, reason: 'fuzz' }),
  'admin POST /accounts/{accountId}/credentials': () => ({ environment: 'sandbox' }),
  'admin PATCH /accounts/{accountId}': () => ({ name: 'Renamed' }),
  'admin PUT /fx-rates/{currencyCode}': () => ({ unitsPerUsd: '0.9' }),
};

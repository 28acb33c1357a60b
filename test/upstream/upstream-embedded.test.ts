import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type ResellerPair, startResellerPair } from '../harness/reseller-pair.ts';
import { VENDOR_ACCEPT } from '../topups/helpers.ts';

/**
 * Selling live through an upstream on the embedded database, as someone following the README's
 * upstream section on `npm start` would (issue 25): a live order's step calls the upstream outside
 * any transaction (lib/fulfilment-step.ts), so it answers, and the server goes on answering
 * everything else (before, the order's transaction waited for PGlite's only connection from inside:
 * the whole server froze for good).
 */
const pairs: ResellerPair[] = [];
after(async () => {
  for (const p of pairs) await p.stop();
});

async function embeddedPair(product: 'giftcards' | 'topups'): Promise<ResellerPair> {
  const pair = await startResellerPair({ product, embedded: true });
  pairs.push(pair);
  return pair;
}

/** `work`, or a failure naming `what` after `ms` (the old code never answered). */
async function answersWithin<T>(what: string, work: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('a live gift card order through an upstream answers, and the embedded server stays ready', async () => {
  const pair = await embeddedPair('giftcards');
  const order = await answersWithin(
    'the live order',
    pair.reseller.http.post(
      '/giftcards/orders',
      { productId: 1840, quantity: 1, unitPrice: 10, senderName: 'Embedded', customIdentifier: 'embedded-1' },
      { token: pair.liveToken },
    ),
  );
  assert.equal(order.status, 200, order.text);
  assert.equal(order.body.status, 'SUCCESSFUL');
  const cards = await pair.reseller.http.get(
    `/giftcards/orders/transactions/${order.body.transactionId}/cards`,
    {
      token: pair.liveToken,
    },
  );
  assert.equal(cards.status, 200, cards.text);
  assert.equal((await answersWithin('/ready', pair.reseller.http.get('/ready'))).status, 200);
  const audit = await pair.reseller.admin.call('GET', '/ledger/audit');
  assert.deepEqual(audit.body, { discrepancies: [], orders: [] });
});

test('a live top-up through an upstream answers, and the embedded server stays ready', async () => {
  const pair = await embeddedPair('topups');
  const topup = await answersWithin(
    'the live top-up',
    pair.reseller.http.post(
      '/topups/topups',
      { operatorId: 1001, amount: 10, recipientPhone: { countryCode: 'NG', number: '08031234567' } },
      { token: pair.liveToken, headers: { accept: VENDOR_ACCEPT } },
    ),
  );
  assert.equal(topup.status, 200, topup.text);
  assert.equal(topup.body.status, 'SUCCESSFUL');
  assert.equal((await answersWithin('/ready', pair.reseller.http.get('/ready'))).status, 200);
  const audit = await pair.reseller.admin.call('GET', '/ledger/audit');
  assert.deepEqual(audit.body, { discrepancies: [], orders: [] });
});

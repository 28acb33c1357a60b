import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordedExample } from '../src/http/openapi.ts';
import { EXAMPLES_DIR } from '../src/http/openapi-examples.ts';
import { ADMIN_KEY, HOST, openInProcessApp } from './in-process-app.ts';

/**
 * Records one real request and answer per operation of the two product documents, from the app on a
 * fresh sandbox account (`npm run openapi:examples`), into `src/http/openapi-examples/*.json`, which
 * the documents show as examples. Lists longer than three items are cut to their first three (the
 * items are as answered). Run it again when a route or a schema changes;
 * `test/http/openapi-examples.test.ts` fails when an operation has no example or an example no
 * longer fits its schema.
 */
type Params = Record<string, string | number>;
interface Call {
  op: string;
  path?: Params;
  query?: Params;
  body?: unknown;
}

const app = await openInProcessApp();
const account = await app.call(
  'POST',
  '/admin/accounts',
  { authorization: `Bearer ${ADMIN_KEY}` },
  { name: 'Example Shop', currency: 'USD', country: 'US', environment: 'sandbox', fund: 1000 },
);
const tokenFor = async (base: string) =>
  (
    await app.call(
      'POST',
      '/auth/oauth/token',
      {},
      {
        client_id: account.clientId,
        client_secret: account.clientSecret,
        grant_type: 'client_credentials',
        audience: `https://${HOST}${base}`,
      },
    )
  ).access_token as string;

const shorten = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.slice(0, 3);
  if (value && typeof value === 'object' && Array.isArray((value as { content?: unknown }).content))
    return { ...value, content: (value as { content: unknown[] }).content.slice(0, 3) };
  return value;
};

async function recorder(base: string) {
  const token = await tokenFor(base);
  const examples: Record<string, RecordedExample> = {};
  return {
    examples,
    async run({ op, path = {}, query, body }: Call): Promise<any> {
      const [method, template] = op.split(' ');
      const url =
        base +
        template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name]))) +
        (query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '');
      const answer = await app.call(
        method,
        url,
        { authorization: `Bearer ${token}`, accept: 'application/json' },
        body,
      );
      examples[op] = {
        request: {
          ...(Object.keys(path).length > 0 && { path }),
          ...(query && { query }),
          ...(body !== undefined && { body }),
        },
        response: { status: 200, body: shorten(answer) },
      };
      return answer;
    },
  };
}

// ---- gift cards
const g = await recorder('/giftcards-sandbox');
await g.run({ op: 'GET /accounts/balance' });
await g.run({ op: 'GET /product-categories' });
await g.run({ op: 'GET /countries' });
await g.run({ op: 'GET /countries/{countrycode}', path: { countrycode: 'US' } });
await g.run({ op: 'GET /countries/{countrycode}/products', path: { countrycode: 'US' }, query: { size: 2 } });
await g.run({ op: 'GET /products', query: { countryCode: 'US', size: 2 } });
const product = await g.run({ op: 'GET /products/{productId}', path: { productId: 11 } });
await g.run({ op: 'GET /redeem-instructions' });
await g.run({ op: 'GET /brands/{brandId}/redeem-instructions', path: { brandId: product.brand.brandId } });
await g.run({ op: 'GET /products/{productId}/redeem-instructions', path: { productId: 11 } });
await g.run({ op: 'GET /fx-rate', query: { currencyCode: 'EUR', amount: '25' } });
const discounts = await g.run({ op: 'GET /discounts', query: { size: 3 } });
await g.run({
  op: 'GET /products/{productId}/discounts',
  path: { productId: discounts[0].product.productId },
});
const order = await g.run({
  op: 'POST /orders',
  body: {
    productId: 11,
    quantity: 1,
    unitPrice: product.fixedRecipientDenominations[0],
    customIdentifier: 'order-2026-0001',
    senderName: 'Example Shop',
    recipientEmail: 'ada@example.com',
  },
});
await g.run({
  op: 'GET /orders/transactions/{transactionId}/cards',
  path: { transactionId: order.transactionId },
});
await g.run({
  op: 'POST /orders/transactions/{transactionId}/deliveries',
  path: { transactionId: order.transactionId },
  body: { recipientEmail: 'ada.lovelace@example.com' },
});
await g.run({
  op: 'GET /orders/transactions/{transactionId}/deliveries',
  path: { transactionId: order.transactionId },
});
await g.run({ op: 'GET /reports/transactions', query: { size: 3 } });
await g.run({
  op: 'GET /reports/transactions/{transactionId}',
  path: { transactionId: order.transactionId },
});

// ---- top-ups
const t = await recorder('/topups-sandbox');
await t.run({ op: 'GET /accounts/balance' });
await t.run({ op: 'GET /countries' });
await t.run({ op: 'GET /countries/{countryIsoCode}', path: { countryIsoCode: 'NG' } });
await t.run({ op: 'GET /operators', query: { size: 2 } });
await t.run({ op: 'GET /operators/countries/{countryIsoCode}', path: { countryIsoCode: 'NG' } });
const phone = '08031234567';
const operator = await t.run({
  op: 'GET /operators/auto-detect/phone/{phone}/countries/{iso}',
  path: { phone, iso: 'NG' },
});
await t.run({ op: 'GET /operators/{operatorId}', path: { operatorId: operator.operatorId } });
await t.run({ op: 'POST /operators/fx-rate', body: { operatorId: operator.operatorId, amount: 5 } });
await t.run({
  op: 'POST /operators/{operatorId}/fx-rate',
  path: { operatorId: operator.operatorId },
  body: { amount: 5 },
});
await t.run({ op: 'GET /operators/commissions', query: { size: 2 } });
await t.run({ op: 'GET /operators/{operatorId}/commissions', path: { operatorId: operator.operatorId } });
const promotions = await t.run({ op: 'GET /promotions', query: { size: 2 } });
const promotion = promotions.content[0];
await t.run({ op: 'GET /promotions/{promotionId}', path: { promotionId: promotion.promotionId } });
// The promoted operator's country; the example of GET /operators/{operatorId} is then recorded
// again for the detected operator, the one the top-up below uses.
const promoOperator = await t.run({
  op: 'GET /operators/{operatorId}',
  path: { operatorId: promotion.operatorId },
});
await t.run({ op: 'GET /operators/{operatorId}', path: { operatorId: operator.operatorId } });
await t.run({
  op: 'GET /promotions/country-codes/{countryCode}',
  path: { countryCode: promoOperator.country.isoName },
});
await t.run({
  op: 'GET /promotions/countries/{countryCode}',
  path: { countryCode: promoOperator.country.isoName },
});
await t.run({ op: 'GET /promotions/operators/{operatorId}', path: { operatorId: promotion.operatorId } });
const amount =
  operator.denominationType === 'FIXED' ? operator.fixedAmounts[0] : Math.max(operator.minAmount, 5);
const topup = await t.run({
  op: 'POST /topups',
  body: {
    operatorId: operator.operatorId,
    amount,
    customIdentifier: 'topup-2026-0001',
    recipientPhone: { countryCode: 'NG', number: phone },
  },
});
await t.run({ op: 'GET /topups/reports/transactions', query: { size: 2 } });
await t.run({
  op: 'GET /topups/reports/transactions/{transactionId}',
  path: { transactionId: topup.transactionId },
});

await app.close();
for (const [kind, examples] of [
  ['giftcards', g.examples],
  ['topups', t.examples],
] as const) {
  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
  await writeFile(join(EXAMPLES_DIR, `${kind}.json`), `${JSON.stringify(sorted, null, 2)}\n`);
}
process.stdout.write(
  `examples written: ${Object.keys(g.examples).length} gift card and ${Object.keys(t.examples).length} top-up operations\n`,
);

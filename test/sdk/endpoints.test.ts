import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { Admin, GiftCards, type Topups } from '../../sdk/src/index.ts';
import { ADMIN_KEY } from '../harness/client.ts';
import { assertEvery } from '../harness/fields.ts';
import {
  contractChecked,
  type SdkServer,
  sandboxOptions,
  sdkClientsForSuite,
  syntheticAnswer,
} from './helpers.ts';

// Every method of the three clients once, against a real server: the path, query and body the SDK
// sends are the ones the server serves, and the answers carry the spec's field names.
describe('SDK endpoints', () => {
  let s: SdkServer;
  let giftcards: GiftCards;
  let topups: Topups;

  sdkClientsForSuite((c) => ({ s, giftcards, topups } = c));

  test('gift cards: all 19 product endpoints', async () => {
    assert.equal((await giftcards.balance.get()).currencyCode, 'USD');
    const categories = await giftcards.categories.list();
    assert.ok(categories.length > 0 && typeof categories[0]!.id === 'number');
    const countries = await giftcards.countries.list();
    assert.ok(countries.some((c) => c.isoName === 'US'));
    assert.equal((await giftcards.countries.get('US')).isoName, 'US');

    const { content: products } = await giftcards.products.list({
      countryCode: 'US',
      includeRange: true,
      includeFixed: true,
      size: 50,
    });
    assert.ok(products.length > 0);
    assert.ok('maxrecipientDenomination' in products[0]!, 'the spec spells it maxrecipientDenomination');
    const byCategory = (await giftcards.products.list({ productCategoryId: categories[0]!.id, size: 5 }))
      .content;
    assertEvery(byCategory, (p) => p.category.id === categories[0]!.id, 'products of the category');
    const product = await giftcards.products.get(11);
    assert.equal(product.productId, 11);
    assert.equal(product.denominationType, 'FIXED');
    assertEvery(
      (await giftcards.countries.products('US', { size: 5 })).content,
      (p) => p.country.isoName === 'US',
      'products of US',
    );

    const instructions = await giftcards.redeemInstructions.list();
    assert.ok(instructions.length > 0 && typeof instructions[0]!.brandId === 'number');
    assert.equal((await giftcards.redeemInstructions.forProduct(11)).productId, 11);
    const brandId = instructions[0]!.brandId;
    assert.equal((await giftcards.redeemInstructions.forBrand(brandId)).brandId, brandId);

    const fx = await giftcards.fx.rate('EUR', 10);
    assert.equal(fx.recipientCurrency, 'EUR');
    assert.equal(fx.senderCurrency, 'USD');
    assert.equal(fx.recipientAmount, 10);

    const { content: discounts } = await giftcards.discounts.list({ size: 3 });
    assert.ok(discounts.length > 0);
    assert.equal(
      (await giftcards.discounts.forProduct(discounts[0]!.product.productId)).product.productId,
      discounts[0]!.product.productId,
    );

    const customIdentifier = `sdk-endpoints-${randomUUID()}`;
    const order = await giftcards.orders.create({
      productId: 11,
      quantity: 2,
      unitPrice: product.fixedRecipientDenominations[0]!,
      senderName: 'SDK endpoints',
      customIdentifier,
      recipientEmail: 'someone@example.com',
    });
    assert.equal(order.status, 'SUCCESSFUL');
    assert.equal(order.product.quantity, 2);
    assert.ok('receipientPhone' in order, 'the spec spells it receipientPhone');
    assert.equal(order.balanceInfo.cost, order.amount);
    assert.equal((await giftcards.transactions.get(order.transactionId)).customIdentifier, customIdentifier);
    const listed = await giftcards.transactions.list({ customIdentifier, size: 5 });
    assert.deepEqual(
      listed.content.map((t) => t.transactionId),
      [order.transactionId],
    );
    assert.equal((await giftcards.orders.cards(order.transactionId)).length, 2);
    const delivered = await giftcards.deliveries.list(order.transactionId);
    assert.deepEqual(
      delivered.deliveries.map((d) => [d.kind, d.address]),
      [['giftcard_email', 'someone@example.com']],
    );
    const resent = await giftcards.deliveries.resend(order.transactionId, {
      recipientEmail: 'other@example.com',
    });
    assert.deepEqual(
      resent.deliveries.map((d) => [d.address, d.status]),
      [
        ['someone@example.com', 'queued'],
        ['other@example.com', 'queued'],
      ],
    );
  });

  test('top-ups: all 17 product endpoints', async () => {
    assert.equal((await topups.balance.get()).currencyCode, 'USD');
    const commissions = await topups.commissions.list({ size: 5 });
    assert.equal(commissions.content.length, 5);
    assert.equal(commissions.page, 1);
    const operatorId = commissions.content[0]!.operator.operatorId;
    assert.equal((await topups.commissions.forOperator(operatorId)).operator.operatorId, operatorId);

    const countries = await topups.countries.list();
    assert.ok(countries.some((c) => c.isoName === 'NG'));
    assert.equal((await topups.countries.get('NG')).isoName, 'NG');

    const operators = await topups.operators.list({ size: 5, includeBundles: false });
    assert.equal(operators.content.length, 5);
    const operator = await topups.operators.get(1001, { suggestedAmounts: true, suggestedAmountsMap: true });
    assert.equal(operator.operatorId, 1001);
    assert.equal(operator.denominationType, 'RANGE');
    assert.ok(Array.isArray(operator.suggestedAmounts));
    const detected = await topups.operators.autoDetect('+2348031234567', 'NG');
    assert.equal(detected.operatorId, 1001);
    const nigerian = await topups.operators.byCountry('NG', { includeBundles: true });
    assert.ok(nigerian.some((o) => o.operatorId === 1001));

    const fx = await topups.operators.fxRate(1001, 5);
    assert.equal(fx.id, 1001);
    assert.equal(fx.currencyCode, 'NGN');

    const promotions = await topups.promotions.list({ size: 3 });
    assert.ok(promotions.content.length > 0);
    const promotion = promotions.content[0]!;
    assert.equal((await topups.promotions.get(promotion.promotionId)).promotionId, promotion.promotionId);
    assertEvery(
      await topups.promotions.byOperator(promotion.operatorId),
      (p) => p.operatorId === promotion.operatorId,
      'promotions of the operator',
    );
    const promoOperator = await topups.operators.get(promotion.operatorId);
    assert.ok(Array.isArray(await topups.promotions.byCountry(promoOperator.country.isoName)));

    const customIdentifier = `sdk-endpoints-${randomUUID()}`;
    const sent = await topups.orders.create({
      operatorId: 1001,
      amount: 5,
      customIdentifier,
      recipientPhone: { countryCode: 'NG', number: '08031234568' },
      senderPhone: { countryCode: 'US', number: '+12025550123' },
    });
    assert.equal(sent.status, 'SUCCESSFUL');
    assert.equal(sent.requestedAmount, 5);
    assert.equal((await topups.transactions.get(sent.transactionId)).customIdentifier, customIdentifier);
    const listed = await topups.transactions.list({
      customIdentifier,
      sortBy: 'transactionDate',
      sortOrder: 'desc',
    });
    assert.deepEqual(
      listed.content.map((t) => t.transactionId),
      [sent.transactionId],
    );
  });

  test('the SDK traffic is checked against the published OpenAPI documents', async () => {
    // A s.server answer that breaks the document (a balance without currencyCode) fails the call.
    const broken = contractChecked(async (url, init) =>
      url.endsWith('/accounts/balance')
        ? syntheticAnswer(200, { balance: 1 }, { 'content-type': 'application/json' })
        : s.fetch(url, init),
    );
    const client = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', broken));
    await assert.rejects(
      client.balance.get(),
      /contract: GET \/giftcards-sandbox\/accounts\/balance answered 200/,
    );
  });

  test('admin: accounts, credentials, balances and the audit', async () => {
    const admin = new Admin({ adminKey: ADMIN_KEY, baseUrl: `${s.server.url}/admin`, fetch: s.fetch });
    const created = await admin.accounts.create({
      name: 'SDK admin',
      currency: 'EUR',
      country: 'DE',
      environment: 'sandbox',
      fund: 50,
    });
    assert.equal(created.balance, 50);
    assert.match(created.clientSecret, /^sk_test_/);
    const id = created.accountId;
    assert.ok((await admin.accounts.list({ size: 1000 })).items.some((a) => a.accountId === id));
    assert.equal(
      (await admin.accounts.fund(id, { environment: 'sandbox', amount: 25, reason: 'sdk' })).newBalance,
      75,
    );
    assert.equal(
      (await admin.accounts.adjust(id, { environment: 'sandbox', amount: -5, reason: 'sdk' })).newBalance,
      70,
    );
    assert.equal((await admin.accounts.setLimits(id, { dailyCountLimit: 3 })).dailyCountLimit, 3);
    assert.equal((await admin.accounts.deactivate(id)).status, 'INACTIVE');
    assert.equal((await admin.accounts.activate(id)).status, 'ACTIVE');
    const ledger = await admin.accounts.ledger(id, { environment: 'sandbox', size: 10 });
    assert.deepEqual(
      ledger.items.map((e) => e.kind),
      ['ADJUSTMENT', 'FUNDING', 'FUNDING'],
    );
    const credential = await admin.credentials.create(id, { environment: 'live', scopes: ['developer'] });
    assert.match(credential.clientId, /^ag_live_/);
    assert.equal((await admin.credentials.revoke(credential.clientId)).revoked, true);
    const shown = await admin.accounts.show(id);
    assert.equal(shown.balances.sandbox.balance, 70);
    assert.equal(shown.credentials.length, 2);
    assert.deepEqual((await admin.ledger.audit()).discrepancies, []);

    const eur = await admin.fx.set('EUR', '0.9', '2026-11-20 12:00:00');
    assert.deepEqual(eur, { currencyCode: 'EUR', unitsPerUsd: 0.9, asOf: '2026-11-20 12:00:00' });
    assert.deepEqual(
      (await admin.fx.list()).rates.find((r) => r.currencyCode === 'EUR'),
      eur,
    );
    assert.equal((await admin.products.deactivate(11)).status, 'INACTIVE');
    assert.equal((await admin.products.activate(11)).status, 'ACTIVE');
    const catalog = await admin.catalog.export();
    assert.ok(Array.isArray(catalog.products));
    const counts = await admin.catalog.import(catalog);
    assert.equal(counts.products, (catalog.products as unknown[]).length);
  });
});

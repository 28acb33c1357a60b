import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { assertEvery } from '../harness/fields.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertFields, assertOperator, assertPaged } from './helpers.ts';

// Endpoints 3-15 of the top-up spec: every field's presence and type, and every query flag.
let server: TestServer;
let usd: Caller;
let eur: Caller;
before(async () => {
  server = await startTestServer();
  usd = await server.caller('topups');
  eur = await server.caller('topups', 'sandbox', { currency: 'EUR', country: 'DE' });
});
after(() => server.close());

describe('countries', () => {
  test('GET /countries lists the countries with operators, each with the spec fields', async () => {
    const a = await usd.get('/countries');
    assert.equal(a.status, 200);
    assert.ok(Array.isArray(a.body) && a.body.length > 200);
    for (const c of a.body) {
      assertFields(c, {
        isoName: 'string',
        name: 'string',
        currencyCode: 'string',
        currencyName: 'string',
        currencySymbol: 'string',
        flag: 'string',
        callingCodes: 'array',
      });
      assert.ok(!('continent' in c));
    }
    // by name, as the original lists them (issue 8; the official airtime client's tests expect it)
    const names = a.body.map((c: { name: string }) => c.name);
    assert.deepEqual(
      names,
      [...names].sort((x: string, y: string) => x.localeCompare(y, 'en')),
    );
    assert.equal(names[0], 'Afghanistan');
  });

  test('GET /countries/{iso} answers one country; an unknown one COUNTRY_NOT_SUPPORTED', async () => {
    const ng = await usd.get('/countries/ng');
    assert.equal(ng.status, 200);
    assert.equal(ng.body.isoName, 'NG');
    assert.equal(ng.body.currencyCode, 'NGN');
    assert.deepEqual(ng.body.callingCodes, ['+234']);
    const zz = await usd.get('/countries/ZZ');
    assert.equal(zz.status, 404);
    assert.equal(zz.body.errorCode, 'COUNTRY_NOT_SUPPORTED');
  });
});

describe('operators', () => {
  test('GET /operators is the paged wrapper (page 1 -> number 0) of full operators, default size 200', async () => {
    const a = await usd.get('/operators');
    assert.equal(a.status, 200);
    assertPaged(a.body);
    assert.equal(a.body.size, 200);
    assert.equal(a.body.number, 0);
    assert.equal(a.body.first, true);
    assert.equal(a.body.content.length, 200);
    assert.ok(a.body.totalElements > 1000);
    for (const o of a.body.content) assertOperator(o);
    const last = await usd.get(`/operators?page=${a.body.totalPages}&size=200`);
    assert.equal(last.body.last, true);
    assert.equal(last.body.number, a.body.totalPages - 1);
    const past = await usd.get(`/operators?page=${a.body.totalPages + 1}`);
    assert.deepEqual(past.body.content, []);
    assert.equal((await usd.get('/operators?page=0')).status, 400);
    assert.equal((await usd.get('/operators?simplified=maybe')).status, 400);
  });

  test('includePin/includeData/includeBundles=false leave those operators out', async () => {
    const all = await usd.get('/operators?size=1000&page=1');
    const filtered = await usd.get(
      '/operators?size=1000&includePin=false&includeData=false&includeBundles=false',
    );
    assert.ok(filtered.body.totalElements < all.body.totalElements);
    const again = await usd.get(
      `/operators?size=1000&page=2&includePin=false&includeData=false&includeBundles=false`,
    );
    for (const o of [...filtered.body.content, ...again.body.content]) {
      assert.equal(o.pin || o.data || o.bundle, false, o.name);
    }
    assert.ok(all.body.content.some((o: any) => o.pin));
  });

  test('simplified=true answers the documented field list only', async () => {
    const a = await usd.get('/operators?simplified=true&size=5');
    assert.equal(a.status, 200);
    for (const o of a.body.content) {
      assert.deepEqual(Object.keys(o).sort(), [
        'bundle',
        'country',
        'data',
        'denominationType',
        'destinationCurrencyCode',
        'fixedAmounts',
        'id',
        'localFixedAmounts',
        'localMaxAmount',
        'localMinAmount',
        'maxAmount',
        'minAmount',
        'name',
        'operatorId',
        'pin',
        'senderCurrencyCode',
        'supportsLocalAmounts',
      ]);
    }
  });

  test('an FX rate set by the admin is in the next operator read: nothing is kept from the old table', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      server.admin.call(method, `${path}`, body);
    const rates = (await admin('GET', '/fx-rates')).body.rates as Array<{
      currencyCode: string;
      unitsPerUsd: number;
    }>;
    const units = (code: string) => rates.find((r) => r.currencyCode === code)?.unitsPerUsd as number;
    const before = {
      usd: (await usd.get('/operators/1001')).body,
      eur: (await eur.get('/operators/1001')).body,
    };
    try {
      assert.equal((await admin('PUT', '/fx-rates/NGN', { unitsPerUsd: units('NGN') * 2 })).status, 200);
      assert.equal((await admin('PUT', '/fx-rates/EUR', { unitsPerUsd: units('EUR') * 2 })).status, 200);
      const usdAfter = (await usd.get('/operators/1001')).body;
      const eurAfter = (await eur.get('/operators/1001')).body;
      // a USD account: its amounts stay, what they deliver in NGN doubles
      assert.equal(usdAfter.minAmount, before.usd.minAmount);
      assert.ok(Math.abs(usdAfter.fx.rate / before.usd.fx.rate - 2) < 0.001, `${usdAfter.fx.rate}`);
      // an EUR account: the operator's USD amounts cost twice as many euros; NGN per euro is unchanged
      assert.ok(Math.abs(eurAfter.maxAmount / before.eur.maxAmount - 2) < 0.01, `${eurAfter.maxAmount}`);
      assert.ok(Math.abs(eurAfter.fx.rate / before.eur.fx.rate - 1) < 0.001, `${eurAfter.fx.rate}`);
    } finally {
      await admin('PUT', '/fx-rates/NGN', { unitsPerUsd: units('NGN') });
      await admin('PUT', '/fx-rates/EUR', { unitsPerUsd: units('EUR') });
    }
    assert.deepEqual((await usd.get('/operators/1001')).body, before.usd);
    assert.deepEqual((await eur.get('/operators/1001')).body, before.eur);
  });

  test('GET /operators/{id}: MTN Nigeria, RANGE with local amounts; flags add suggested amounts', async () => {
    const a = await usd.get('/operators/1001');
    assert.equal(a.status, 200);
    assertOperator(a.body);
    assert.equal(a.body.name, 'MTN Nigeria');
    assert.deepEqual(a.body.country, { isoName: 'NG', name: 'Nigeria' });
    assert.equal(a.body.minAmount, 3);
    assert.equal(a.body.maxAmount, 200);
    assert.equal(a.body.localMinAmount, 5000);
    assert.equal(a.body.localMaxAmount, 300000);
    assert.equal(a.body.mostPopularLocalAmount, 30000);
    assert.equal(a.body.internationalDiscount, 6);
    assert.equal(a.body.localDiscount, 3.75);
    assert.equal(a.body.fx.currencyCode, 'NGN');
    assert.equal(a.body.senderCurrencyCode, 'USD');
    assert.equal(a.body.senderCurrencySymbol, '$');

    const s = await usd.get('/operators/1001?suggestedAmounts=true&suggestedAmountsMap=true');
    assert.deepEqual(s.body.suggestedAmounts, [5, 15, 20, 30, 40, 50, 100, 150]);
    assert.equal(s.body.suggestedAmountsMap['5.00'], Math.round(5 * s.body.fx.rate * 100) / 100);
    const only = await usd.get('/operators/1001?suggestedAmounts=true');
    assert.ok('suggestedAmounts' in only.body && !('suggestedAmountsMap' in only.body));

    assert.equal((await usd.get('/operators/99999')).status, 404);
    assert.equal((await usd.get('/operators/abc')).status, 400);
  });

  test('amounts are in the account currency; fx is based on it', async () => {
    const inUsd = await usd.get('/operators/1001');
    const inEur = await eur.get('/operators/1001');
    assert.equal(inEur.body.senderCurrencyCode, 'EUR');
    assert.equal(inEur.body.senderCurrencySymbol, '€');
    assert.notEqual(inEur.body.minAmount, inUsd.body.minAmount);
    assert.notEqual(inEur.body.fx.rate, inUsd.body.fx.rate);
    const fixed = await eur.get('/operators/1004');
    assert.equal(fixed.body.denominationType, 'FIXED');
    assert.equal(Object.keys(fixed.body.fixedAmountsDescriptions).length > 0, true);
    for (const key of Object.keys(fixed.body.fixedAmountsDescriptions)) {
      assert.ok(fixed.body.fixedAmounts.includes(Number(key)), key);
    }
  });

  test('GET /operators/countries/{iso} is an array with the include* filters; unknown country 404', async () => {
    const a = await usd.get('/operators/countries/NG');
    assert.equal(a.status, 200);
    assert.ok(Array.isArray(a.body));
    for (const o of a.body) {
      assertOperator(o);
      assert.equal(o.country.isoName, 'NG');
    }
    assert.ok(
      a.body.some((o: any) => o.pin) && a.body.some((o: any) => o.data) && a.body.some((o: any) => o.bundle),
    );
    for (const [flag, field] of [
      ['includePin', 'pin'],
      ['includeData', 'data'],
      ['includeBundles', 'bundle'],
    ]) {
      const f = await usd.get(`/operators/countries/NG?${flag}=false`);
      assert.ok(f.body.length < a.body.length);
      assertEvery(f.body, (o: any) => !o[field], flag);
    }
    const s = await usd.get('/operators/countries/NG?suggestedAmounts=true&suggestedAmountsMap=true');
    assertEvery(
      s.body,
      (o: any) => Array.isArray(o.suggestedAmounts) && typeof o.suggestedAmountsMap === 'object',
      'NG operators with suggested amounts',
    );
    const zz = await usd.get('/operators/countries/ZZ');
    assert.equal(zz.status, 404);
    assert.equal(zz.body.errorCode, 'COUNTRY_NOT_SUPPORTED');
  });

  test('POST /operators/fx-rate answers what the amount delivers in the destination currency', async () => {
    const op = await usd.get('/operators/1001');
    const a = await usd.post('/operators/fx-rate', { operatorId: 1001, amount: 10 });
    assert.equal(a.status, 200);
    assertFields(a.body, { id: 'integer', name: 'string', fxRate: 'number', currencyCode: 'string' });
    assert.deepEqual(a.body, {
      id: 1001,
      name: 'MTN Nigeria',
      fxRate: Math.round(10 * op.body.fx.rate * 100) / 100,
      currencyCode: 'NGN',
    });
    const bad = await usd.post('/operators/fx-rate', { operatorId: 1001, amount: 'ten' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorCode, 'INVALID_AMOUNT');
    assert.equal((await usd.post('/operators/fx-rate', { operatorId: 99999, amount: 1 })).status, 404);
  });
});

describe('commissions', () => {
  const COMMISSION = {
    operator: 'object',
    percentage: 'number',
    internationalPercentage: 'number',
    localPercentage: 'number',
    updatedAt: 'string',
  };
  test('GET /operators/commissions: paged, default size 200, spec fields', async () => {
    const a = await usd.get('/operators/commissions');
    assert.equal(a.status, 200);
    assertPaged(a.body);
    assert.equal(a.body.size, 200);
    for (const c of a.body.content) {
      assertFields(c, COMMISSION);
      assertFields(c.operator, {
        operatorId: 'integer',
        name: 'string',
        countryCode: 'string',
        status: 'boolean',
        bundle: 'boolean',
        data: 'boolean',
      });
      assert.match(c.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    const page2 = await usd.get('/operators/commissions?page=2&size=50');
    assert.equal(page2.body.number, 1);
    assert.equal(page2.body.content.length, 50);
  });

  test('GET /operators/{id}/commissions answers one commission', async () => {
    const a = await usd.get('/operators/1001/commissions');
    assert.equal(a.status, 200);
    assertFields(a.body, COMMISSION);
    assert.equal(a.body.operator.operatorId, 1001);
    assert.equal(a.body.internationalPercentage, 6);
    assert.equal(a.body.localPercentage, 3.75);
    assert.equal((await usd.get('/operators/99999/commissions')).status, 404);
  });
});

describe('promotions', () => {
  const PROMOTION = {
    promotionId: 'integer',
    operatorId: 'integer',
    title: 'string',
    title2: 'string',
    description: 'string',
    startDate: 'string',
    endDate: 'string',
    denominations: 'string',
    localDenominations: 'string|null',
  };
  const RFC2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/;

  test('GET /promotions: paged, spec fields, dates like "Mon, 25 Jun 2018 06:00:00 +0000"', async () => {
    const a = await usd.get('/promotions');
    assert.equal(a.status, 200);
    assertPaged(a.body);
    assert.equal(a.body.size, 200);
    assert.ok(a.body.totalElements > 200);
    for (const p of a.body.content) {
      assertFields(p, PROMOTION);
      assert.match(p.startDate, RFC2822);
      assert.match(p.endDate, RFC2822);
    }
  });

  test('by id, by country and by operator', async () => {
    const first = (await usd.get('/promotions?size=1')).body.content[0];
    const byId = await usd.get(`/promotions/${first.promotionId}`);
    assert.deepEqual(byId.body, first);
    assert.equal((await usd.get('/promotions/1')).status, 404);

    const byOperator = await usd.get(`/promotions/operators/${first.operatorId}`);
    assert.equal(byOperator.status, 200);
    assert.ok(byOperator.body.some((p: any) => p.promotionId === first.promotionId));
    assert.ok(byOperator.body.every((p: any) => p.operatorId === first.operatorId));

    const op = await usd.get(`/operators/${first.operatorId}`);
    const byCountry = await usd.get(`/promotions/country-codes/${op.body.country.isoName}`);
    assert.equal(byCountry.status, 200);
    assert.ok(byCountry.body.some((p: any) => p.promotionId === first.promotionId));
    for (const p of byCountry.body) assertFields(p, PROMOTION);
    assert.equal((await usd.get('/promotions/country-codes/ZZ')).body.errorCode, 'COUNTRY_NOT_SUPPORTED');
  });

  test("an operator's promotions field holds the ones running now", async () => {
    const all = (await usd.get('/promotions?size=1000')).body.content;
    const now = Date.now();
    const running = all.find((p: any) => Date.parse(p.startDate) <= now && now <= Date.parse(p.endDate));
    assert.ok(running, 'a running promotion in the catalogue');
    const op = await usd.get(`/operators/${running.operatorId}`);
    assert.ok(op.body.promotions.some((p: any) => p.promotionId === running.promotionId));
    const ended = all.find((p: any) => Date.parse(p.endDate) < now);
    const op2 = await usd.get(`/operators/${ended.operatorId}`);
    assert.ok(!op2.body.promotions.some((p: any) => p.promotionId === ended.promotionId));
  });
});

test('GET /accounts/balance on the top-up base: the Balance fields', async () => {
  const a = await usd.get('/accounts/balance');
  assert.equal(a.status, 200);
  assertFields(a.body, {
    balance: 'number',
    currencyCode: 'string',
    currencyName: 'string',
    updatedAt: 'string',
  });
  assert.equal(a.body.currencyCode, 'USD');
});

test('each catalogue route needs its scope (403 NOT_AUTHORIZED otherwise)', async () => {
  const limited = await server.caller('topups', 'sandbox', { scopes: ['send-topups'] });
  for (const path of [
    '/operators',
    '/countries',
    '/promotions',
    '/operators/commissions',
    '/accounts/balance',
  ]) {
    const a = await limited.get(path);
    assert.equal(a.status, 403, path);
    assert.equal(a.body.errorCode, 'NOT_AUTHORIZED');
  }
  assert.equal((await limited.post('/operators/fx-rate', { operatorId: 1001, amount: 1 })).status, 403);
});

import assert from 'node:assert/strict';
import { setDefaultResultOrder } from 'node:dns';
import { globalAgent } from 'node:https';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { caPem } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// The client is loaded as the JavaScript its package runs: the package also ships its TypeScript
// sources, which the compiler would check under this project's strict settings and refuse.
const require = createRequire(import.meta.url);
const { AirtimeApi, Phone, PhoneTopupRequest } = require('@reloadly/reloadly.airtime');
const { OperatorFilter } = require('@reloadly/reloadly.airtime/filter/OperatorFilter');
const { AuthenticationApi } = require('@reloadly/reloadly.authentication');
const { Environment, QueryFilter, Service } = require('@reloadly/reloadly.core');

/**
 * Reloadly's official airtime Node client (`@reloadly/reloadly.airtime` 1.0.6, from npm) against
 * airgift's top-up sandbox: the client's own test cases (its package's test/*.ts), in its order,
 * with its calls and its assertions. Only the base URLs it has built in change (the token service
 * and the sandbox base, set on its exported constants), and its credentials. Issue 27: its top-up of
 * 10 GBP (useLocalAmount) on the first operator airgift lists for GB, and the report cases after it,
 * need that operator to sell UK top-ups' face values (data/operators: from 5 and 10 GBP).
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('the official airtime Node client against the top-up sandbox', () => {
  let server: TestServer;
  let api: () => typeof AirtimeApi;

  before(async () => {
    // The client's audience is its base URL, so the server must know itself under that URL.
    const port = await freePort();
    const origin = `https://localhost:${port}`;
    server = await startTestServer({ port, env: { PUBLIC_URL: origin } });
    setDefaultResultOrder('ipv4first');
    globalAgent.options.ca = caPem();
    Service.AIRTIME_SANDBOX = `${origin}/topups-sandbox`;
    AuthenticationApi.BASE_URL = `${origin}/auth`;
    const account = await server.admin.createAccount({ currency: 'USD', country: 'US', fund: 1000 });
    api = () => new AirtimeApi(account.clientId, account.clientSecret, null, Environment.SANDBOX);
  });
  after(() => server.close());

  // AccountOperationsTests
  test('Get Balance', async () => {
    const res = await (await api().accounts()).getBalance().execute();
    assert.ok(Number(res.balance) !== 0, 'getBalance failed.');
  });

  // CountryOperationsTests
  test('Get Country', async () => {
    const res = await (await api().countries()).getByCode('AF').execute();
    assert.ok(res.name === 'Afghanistan');
  });

  test('List Countries', async () => {
    const res = await (await api().countries()).list().execute();
    assert.ok(res.length > 0);
    assert.ok(res[0].name === 'Afghanistan');
  });

  // DiscountOperationsTests
  test('Get Account Balance With Page', async () => {
    const operation = await api().discounts();
    const res1 = await operation.list().execute();
    const res2 = await operation.list(new QueryFilter().withPage(2, 5)).execute();
    assert.ok(JSON.stringify(res1) !== JSON.stringify(res2));
  });

  test('Get By Operator Id (discounts)', async () => {
    const operation = await api().discounts();
    const res1 = await operation.list(new QueryFilter().withPage(2, 5)).execute();
    const operatorId = res1.content[0].operator.id;
    const res2 = await operation.getByOperatorId(operatorId).execute();
    assert.ok(operatorId === res2.operator.id);
  });

  // OperatorOperationsTests
  test('Auto Detect', async () => {
    const res = await (await api().operators()).autoDetect('+905435554433', 'TR').execute();
    assert.equal(res.country.name, 'Turkey');
  });

  test('Calculate FX Rate', async () => {
    const operation = await api().operators();
    const res1 = await operation.listByCountryCode('GB').execute();
    const res2 = await operation.calculateFxRate(res1[0].id, 1).execute();
    assert.ok(res2.fxRate > 0.5);
    assert.ok(res2.fxRate < 1.5);
  });

  test('Get By ID', async () => {
    const operation = await api().operators();
    const res1 = await operation.listByCountryCode('GB').execute();
    const res2 = await operation.getById(res1[0].id).execute();
    assert.ok(res1[0].id === res2.id);
  });

  test('List', async () => {
    const res1 = await (await api().operators()).list().execute();
    assert.ok(res1.content.length > 0);
  });

  test('List With Filters', async () => {
    const filter = new OperatorFilter()
      .includeData(true)
      .includeBundles(true)
      .includeFixedDenominationType(true)
      .includePin(true)
      .includeRangeDenominationType(true)
      .includeSuggestedAmounts(true)
      .includeSuggestedAmountsMap(true);
    const res1 = await (await api().operators()).list(filter).execute();
    assert.ok(res1.content.length > 0);
  });

  test('List By Country Code', async () => {
    const res1 = await (await api().operators()).listByCountryCode('TR').execute();
    assert.equal(res1[0].country.name, 'Turkey');
  });

  // PromotionOperationsTests
  test('Get By Country Code (promotions)', async () => {
    const promoOp = await api().promotions();
    const promo = (await promoOp.list().execute()).content[0];
    const operRes = await (await api().operators()).getById(promo.operatorId).execute();
    const res = await promoOp.getByCountryCode(operRes.country.isoName).execute();
    assert.ok(res.length > 0);
  });

  test('Get By Id (promotions)', async () => {
    const promoOp = await api().promotions();
    const promo = (await promoOp.list().execute()).content[0];
    const res = await promoOp.getById(promo.id).execute();
    assert.ok(promo.id === res.id);
  });

  test('Get By Operator Id (promotions)', async () => {
    const promoOp = await api().promotions();
    const promo = (await promoOp.list().execute()).content[0];
    const res = await promoOp.getByOperatorId(promo.operatorId).execute();
    assert.ok(res[0].operatorId === promo.operatorId);
  });

  // TopupOperationsTests: 10 GBP (local amount) on the first operator listed for GB
  test('Topup', async () => {
    const operRes = await (await api().operators()).listByCountryCode('GB').execute();
    const operatorId = Number(operRes[0].id);
    const res = await (await api().topups())
      .send(
        new PhoneTopupRequest(
          10,
          operatorId,
          new Phone('+447772235236', 'GB'),
          true,
          new Phone('+447772235235', 'GB'),
        ),
      )
      .execute();
    assert.ok('447772235236' === res.recipientPhone);
  });

  // TransactionHistoryOperationsTests: they need the top-up above
  test('List Transaction History', async () => {
    const res = await (await api().reports()).transactionsHistory().list().execute();
    assert.ok(res.content.length > 0);
  });

  test('Get By Id (transactions)', async () => {
    const operation = (await api().reports()).transactionsHistory();
    const listRes = await operation.list().execute();
    const res = await operation.getById(listRes.content[0].transactionId).execute();
    assert.ok(listRes.content[0].transactionId === res.transactionId);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountOn, deploymentForSuite, type ServerProcess } from '../harness/server-process.ts';
import { msUntil } from '../harness/until.ts';

// Two real server processes (src/main.ts) of one deployment on one PostgreSQL database, each keeping
// verified tokens and accounts in memory: a revocation or a deactivation made through one server must
// be refused by the other within 1 s, and by the one that made it at once.
const suite = await deploymentForSuite(2);

const newAccount = (server: ServerProcess, currency = 'USD') => accountOn(server, { currency });

test('a credential revoked through one server is refused by the other within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  const read = (server: ServerProcess) =>
    server.http.call('GET', '/giftcards-sandbox/products/1840', { token: account.token });
  // Both servers have verified the token (and keep it in memory).
  for (const server of [a, b, a, b]) assert.equal((await read(server)).status, 200);

  const revoked = await a.admin.call('POST', `/credentials/${account.clientId}/revoke`);
  assert.equal(revoked.status, 200);
  assert.equal((await read(a)).status, 401, 'the server that revoked refuses at once');
  const ms = await msUntil(async () => {
    const r = await read(b);
    return r.status === 401;
  });
  assert.ok(ms < 1000, `the other server refused the revoked token after ${ms} ms`);
  assert.equal((await read(b)).body.errorCode, 'AUTHENTICATION_FAILURE');
});

test('an account deactivated through one server cannot order on the other within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  let n = 0;
  const order = () =>
    b.http.call('POST', '/giftcards-sandbox/orders', {
      token: account.token,
      body: { productId: 11, quantity: 1, unitPrice: 10, senderName: 'T', customIdentifier: `two-${++n}` },
    });
  assert.equal((await order()).status, 200);
  assert.equal((await a.admin.call('POST', `/accounts/${account.accountId}/deactivate`)).status, 200);
  const ms = await msUntil(async () => {
    const answer = await order();
    return answer.status === 403 && answer.body.errorCode === 'INACTIVE_ACCOUNT';
  });
  assert.ok(ms < 1000, `the other server took orders of the deactivated account for ${ms} ms`);

  // And back: activation reaches the other server too.
  assert.equal((await a.admin.call('POST', `/accounts/${account.accountId}/activate`)).status, 200);
  const back = await msUntil(async () => (await order()).status === 200);
  assert.ok(back < 1000, `activation took ${back} ms to reach the other server`);
});

test('an FX rate changed through one server reprices the prepared answers of the other within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a, 'EUR');
  const price = async (server: ServerProcess) => {
    const answer = await server.http.call('GET', '/giftcards-sandbox/fx-rate?currencyCode=USD&amount=100', {
      token: account.token,
    });
    assert.equal(answer.status, 200);
    return answer.body.senderAmount as number;
  };
  // Both servers have prepared the answer (and keep it).
  const before = await price(b);
  assert.equal(await price(a), before);
  assert.equal(await price(b), before);
  const rates = await a.admin.call('GET', '/fx-rates');
  const eur = rates.body.rates.find((r: { currencyCode: string }) => r.currencyCode === 'EUR').unitsPerUsd;
  assert.equal((await a.admin.call('PUT', '/fx-rates/EUR', { unitsPerUsd: eur * 2 })).status, 200);
  assert.notEqual(await price(a), before, 'the server that changed the rate answers the new price at once');
  const ms = await msUntil(async () => (await price(b)) !== before);
  assert.ok(ms < 1000, `the other server answered the old price for ${ms} ms`);
  assert.equal(await price(b), await price(a));
});

test('a top-up operator deactivated through one server is refused by the other within 1 s', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  const token = (
    await a.http.call('POST', '/auth/oauth/token', {
      body: {
        client_id: account.clientId,
        client_secret: account.clientSecret,
        grant_type: 'client_credentials',
        audience: 'https://localhost/topups-sandbox',
      },
    })
  ).body.access_token as string;
  const read = (server: ServerProcess) =>
    server.http.call('GET', '/topups-sandbox/operators/1001', { token });
  // Both servers serve the operator (and keep their catalogue and the prepared answer).
  for (const server of [a, b, a, b]) assert.equal((await read(server)).status, 200);
  assert.equal((await a.admin.call('POST', '/topup-operators/1001/deactivate')).status, 200);
  try {
    assert.equal((await read(a)).status, 404, 'the server that deactivated it at once');
    const ms = await msUntil(async () => (await read(b)).status === 404);
    assert.ok(ms < 1000, `the other server served the deactivated operator for ${ms} ms`);
  } finally {
    assert.equal((await a.admin.call('POST', '/topup-operators/1001/activate')).status, 200);
  }
  const back = await msUntil(async () => (await read(b)).status === 200);
  assert.ok(back < 1000, `activation took ${back} ms to reach the other server`);
});

test("an account's shapes switched through one server are answered by the other within 1 s (issue 27)", {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const account = await newAccount(a);
  const paged = async (server: ServerProcess) => {
    const answer = await server.http.call('GET', '/giftcards-sandbox/products?size=2', {
      token: account.token,
    });
    assert.equal(answer.status, 200);
    return !Array.isArray(answer.body);
  };
  // Both servers keep the account and the prepared answer (the second read of each from memory).
  for (const server of [a, b, a, b]) assert.equal(await paged(server), false);
  const set = await a.admin.call('PATCH', `/accounts/${account.accountId}`, { shapes: 'service' });
  assert.equal(set.status, 200);
  assert.equal(await paged(a), true, 'the server that switched answers the new shapes at once');
  const ms = await msUntil(() => paged(b));
  assert.ok(ms < 1000, `the other server answered the old shapes for ${ms} ms`);
  assert.equal(await paged(b), true);
});

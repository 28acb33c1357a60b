import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountOn, deploymentForSuite } from '../harness/server-process.ts';

// Issue 8: two real server processes (src/main.ts) of one deployment on one PostgreSQL database draw
// from one code stock at the same time. No code is ever sold twice, every successful order holds
// exactly its quantity of codes, the codes sold are exactly those of the successful orders, a refused
// order pays nothing, and once the rush is over the stock sells to its last code.
const suite = await deploymentForSuite(2);
const PRODUCT = 1840; // Amazon US, FIXED, 10 USD among its denominations
const CODES = 40;

test('two server processes drawing from one stock never sell a code twice', {
  skip: suite.skip,
}, async () => {
  const [a, b] = suite.servers;
  const imported = Array.from({ length: CODES }, (_, i) => ({
    cardNumber: String(7000_0000_0000_0001n + BigInt(i) * 13n),
    pinCode: String(200000 + i),
  }));
  const csv = `cardNumber,pinCode,faceValue\n${imported.map((c) => `${c.cardNumber},${c.pinCode},10`).join('\n')}\n`;
  assert.equal((await a.admin.call('POST', `/products/${PRODUCT}/stock`, { csv })).status, 200);
  assert.equal(
    (await b.admin.call('PUT', `/products/${PRODUCT}/provider`, { provider: 'stock' })).status,
    200,
  );

  // Four accounts, each ordering through both servers at once: 60 orders of 1 or 2 cards for 40 codes.
  const accounts = await Promise.all(
    [0, 1, 2, 3].map((i) => accountOn(a, { name: `stock-rush-${i}`, environment: 'live', fund: 100_000 })),
  );
  const orders = Array.from({ length: 60 }, (_, i) => ({
    server: i % 2 === 0 ? a : b,
    account: accounts[i % accounts.length],
    quantity: (i % 3) + 1 > 2 ? 2 : 1,
  }));
  const answers = await Promise.all(
    orders.map((o, i) =>
      o.server.http.call('POST', '/giftcards/orders', {
        token: o.account.token,
        body: {
          productId: PRODUCT,
          quantity: o.quantity,
          unitPrice: 10,
          senderName: 'Rush',
          customIdentifier: `rush-${i}`,
        },
      }),
    ),
  );
  const sold = answers.filter((r) => r.status === 200);
  const refused = answers.filter((r) => r.status !== 200);
  for (const r of refused) {
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.errorCode, 'UNPROCCESSABLE_ENTITY');
  }
  assert.ok(sold.length > 0);
  for (const r of sold) assert.equal(r.body.status, 'SUCCESSFUL', r.text);

  // Every card of every successful order, read through either server: distinct, all from the stock.
  const cardsOf = async (answer: (typeof sold)[number], i: number) => {
    const owner = orders[answers.indexOf(answer)].account;
    const cards = await (i % 2 ? a : b).http.get(
      `/giftcards/orders/transactions/${answer.body.transactionId}/cards`,
      { token: owner.token },
    );
    assert.equal(cards.status, 200, cards.text);
    assert.equal(cards.body.length, answer.body.product.quantity);
    return [...cards.text.matchAll(/"cardNumber":(\d+)/g)].map((m) => m[1]);
  };
  const numbers = (await Promise.all(sold.map(cardsOf))).flat();
  assert.equal(new Set(numbers).size, numbers.length, 'a code was sold twice');
  const known = new Set(imported.map((c) => c.cardNumber));
  assert.ok(numbers.every((n) => known.has(n)));
  const stock = async () =>
    (await b.admin.call('GET', `/stock?productId=${PRODUCT}`)).body.items.find(
      (l: any) => l.faceValue === 10,
    );
  const afterRush = await stock();
  assert.equal(afterRush.sold, numbers.length, 'codes sold = cards of the successful orders');
  assert.equal(afterRush.available, CODES - numbers.length);

  // After the rush the rest sells one by one to the last code, then the stock refuses.
  let more = 0;
  for (;;) {
    const r = await (more % 2 ? a : b).http.post(
      '/giftcards/orders',
      { productId: PRODUCT, quantity: 1, unitPrice: 10, senderName: 'Rest' },
      { token: accounts[0].token },
    );
    if (r.status !== 200) {
      assert.equal(r.status, 422, r.text);
      break;
    }
    more++;
  }
  assert.equal(numbers.length + more, CODES, 'every code was sold exactly once');
  assert.deepEqual([(await stock()).available, (await stock()).sold], [0, CODES]);

  // Money: each account paid exactly its successful orders; every balance equals its ledger.
  await a.assertLedgerAudit({ balancesOnly: true });
  for (const account of accounts.slice(1)) {
    const paid = sold
      .filter((r) => orders[answers.indexOf(r)].account === account)
      .reduce((sum, r) => sum + Math.round(r.body.amount * 100), 0);
    const shown = await a.admin.call('GET', `/accounts/${account.accountId}`);
    assert.equal(Math.round((100_000 - shown.body.balances.live.balance) * 100), paid);
  }
});

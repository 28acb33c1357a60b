import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AirgiftError, type FetchLike, GiftCards, Topups } from '../../sdk/src/index.ts';
import { AUDIENCES } from '../harness/client.ts';
import { recordingFetch, recordingSleep, type SdkServer, sandboxOptions, startSdkServer } from './helpers.ts';

// Orders through the SDK against a real server: a retried order whose first answer was lost is
// placed once (the retry finds its customIdentifier used and returns the landed transaction); one
// without customIdentifier is never repeated; card codes arrive with every digit.
describe('SDK orders', () => {
  let s: SdkServer;

  before(async () => {
    s = await startSdkServer();
  });
  // every case has an account of its own: no case sees another's balance, orders or identifiers
  beforeEach(async () => {
    s.account = await s.server.admin.createAccount({ environment: 'sandbox', fund: 1000 });
  });
  after(() => s.close());

  /** Passes requests on, but loses the answer of the first POST to `path`: the caller sees a network error. */
  function losingFirstAnswer(path: string) {
    const passed = recordingFetch(s.fetch);
    let lost = false;
    const wrapper: FetchLike = async (url, init) => {
      const response = await passed(url, init);
      if (!lost && init.method === 'POST' && new URL(url).pathname.endsWith(path)) {
        lost = true;
        await response.text();
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    };
    return { wrapper, passed };
  }

  const balance = async () =>
    (await s.server.admin.call('GET', `/accounts/${s.account.accountId}`)).body.balances.sandbox.balance;

  test('a gift card order whose answer was lost is retried and placed once', async () => {
    const { wrapper, passed } = losingFirstAnswer('/orders');
    const sleep = recordingSleep();
    const giftcards = new GiftCards({
      ...sandboxOptions(s.server, s.account, 'giftcards', wrapper),
      retry: { sleep },
    });
    const before = await balance();
    const customIdentifier = `sdk-order-${randomUUID()}`;
    const order = await giftcards.orders.create({
      productId: 11,
      quantity: 1,
      unitPrice: 10,
      senderName: 'SDK test',
      customIdentifier,
    });
    assert.equal(order.customIdentifier, customIdentifier);
    assert.equal(order.status, 'SUCCESSFUL');
    assert.deepEqual(
      passed.sent.filter((s) => s.method === 'POST' && s.path.endsWith('/orders')).map((s) => s.status),
      [200, 400],
      'the first attempt landed, the retry was refused as a duplicate',
    );
    assert.equal(sleep.waits.length, 1);
    const found = (await giftcards.transactions.list({ customIdentifier })).content;
    assert.equal(found.length, 1);
    assert.equal(found[0]!.transactionId, order.transactionId);
    assert.equal(await balance(), Math.round((before - order.amount) * 100) / 100);
    assert.deepEqual(await s.server.admin.audit(), []);
  });

  test('without customIdentifier a lost answer is reported, not repeated', async () => {
    const { wrapper, passed } = losingFirstAnswer('/orders');
    const giftcards = new GiftCards({
      ...sandboxOptions(s.server, s.account, 'giftcards', wrapper),
      retry: { sleep: recordingSleep() },
    });
    const error = await giftcards.orders
      .create({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'SDK test' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.errorCode, 'NETWORK_ERROR');
    assert.equal(error.status, 0);
    assert.equal(passed.sent.filter((s) => s.method === 'POST' && s.path.endsWith('/orders')).length, 1);
  });

  test('a customIdentifier used before is still an error on the first attempt', async () => {
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    const customIdentifier = `sdk-dup-${randomUUID()}`;
    const body = { productId: 11, quantity: 1, unitPrice: 10, senderName: 'SDK test', customIdentifier };
    await giftcards.orders.create(body);
    const error = await giftcards.orders.create(body).catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 400);
    assert.equal(error.errorCode, 'CUSTOM_IDENTIFIER_ALREADY_USED');
  });

  /** An order of `quantity` cards through the SDK, and the cards it reads back (as many as ordered). */
  async function orderCards(productId: number, quantity: number, unitPrice: number) {
    const giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    const order = await giftcards.orders.create({ productId, quantity, unitPrice, senderName: 'SDK test' });
    const cards = await giftcards.orders.cards(order.transactionId);
    assert.equal(cards.length, quantity);
    return { order, cards };
  }

  test('card codes of 16 digits arrive exactly as the server wrote them', async () => {
    const { order, cards } = await orderCards(11, 5, 25);
    const token = await s.server.admin.token(s.account, AUDIENCES.giftcardsSandbox);
    const raw = await s.server.http.get(
      `/giftcards-sandbox/orders/transactions/${order.transactionId}/cards`,
      {
        token,
      },
    );
    const written = [...raw.text.matchAll(/"cardNumber":"?([^",}]+)"?,"pinCode":"?([^",}]+)"?/g)].map(
      (m) => ({
        cardNumber: m[1],
        pinCode: m[2],
      }),
    );
    assert.deepEqual(cards, written);
    for (const card of cards) {
      assert.equal(typeof card.cardNumber, 'string');
      assert.match(card.cardNumber, /^\d{16}$/);
    }
  });

  test('codes that are not all digits pass through as the strings the server sent', async () => {
    const { cards } = await orderCards(13, 2, 10);
    for (const card of cards) {
      assert.match(card.cardNumber, /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      assert.match(card.pinCode, /^[a-z0-9]{6}$/);
    }
  });

  test('a top-up whose answer was lost is retried and sent once', async () => {
    const { wrapper, passed } = losingFirstAnswer('/topups');
    const topups = new Topups({
      ...sandboxOptions(s.server, s.account, 'topups', wrapper),
      retry: { sleep: recordingSleep() },
    });
    const customIdentifier = `sdk-topup-${randomUUID()}`;
    const before = await balance();
    const sent = await topups.orders.create({
      operatorId: 1001,
      amount: 5,
      customIdentifier,
      recipientPhone: { countryCode: 'NG', number: '+2348031234567' },
    });
    assert.equal(sent.customIdentifier, customIdentifier);
    assert.equal(sent.status, 'SUCCESSFUL');
    assert.deepEqual(
      passed.sent.filter((s) => s.method === 'POST' && s.path.endsWith('/topups')).map((s) => s.status),
      [200, 400], // refused as a duplicate (or as a recent recharge of the same phone)
    );
    const found = await topups.transactions.list({ customIdentifier });
    assert.equal(found.totalElements, 1);
    assert.equal(found.content[0]!.transactionId, sent.transactionId);
    assert.equal(await balance(), Math.round((before - sent.balanceInfo.cost) * 100) / 100);
  });

  test('a top-up the server cannot process now (503) is retried with its customIdentifier, then reported', async () => {
    const recorder = recordingFetch(s.fetch);
    const sleep = recordingSleep();
    const topups = new Topups({
      ...sandboxOptions(s.server, s.account, 'topups', recorder),
      retry: { sleep, maxAttempts: 3, random: () => 0 },
    });
    const before = await balance();
    const error = await topups.orders
      .create({
        operatorId: 1001,
        amount: 5,
        customIdentifier: `sdk-503-${randomUUID()}`,
        recipientPhone: { countryCode: 'NG', number: '+2348031299993' },
      })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 503);
    assert.equal(error.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
    assert.deepEqual(sleep.waits, [250, 500]);
    assert.equal(recorder.sent.filter((s) => s.path.endsWith('/topups')).length, 3);
    assert.equal(await balance(), before);
  });
});

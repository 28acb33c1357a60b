import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { cardCodec } from '../../src/lib/card-codes.ts';
import type { GiftcardProvider } from '../../src/modules/giftcards/fulfilment/provider.ts';
import { issueCards } from '../../src/modules/giftcards/fulfilment/sandbox-simulator.ts';
import { unconfiguredProvider } from '../../src/modules/giftcards/fulfilment/unconfigured-provider.ts';
import { createGiftcardOrders as createOrderService } from '../../src/modules/giftcards/orders/order-adapter.ts';
import { ordersRepository } from '../../src/modules/giftcards/orders/orders-repository.ts';
import { createLeases, createWorker, giftcardFulfilmentJob } from '../../src/worker/index.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { D } from './helpers.ts';

// An accepted order survives a provider that fails (or a process that stops) before its first step:
// its next_check_at is in the database, and the poller's run takes it on once it is due.
describe('fulfilment durability', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a first step that fails leaves the order PENDING and paid; the poller finishes it later', async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: 100 });
    const { ledger, accounts, fx, giftcards } = server.runtime.services;
    let down = true;
    const flaky: GiftcardProvider = {
      accept: () => {},
      step(order) {
        if (down) throw new Error('provider unreachable');
        return { status: 'SUCCESSFUL', cards: issueCards(order) };
      },
    };
    const orders = createOrderService({
      db: server.db.kysely,
      clock: server.clock,
      ledger,
      accounts,
      fx,
      catalog: giftcards.catalog,
      repository: ordersRepository(server.db.kysely),
      codec: cardCodec(async () => randomBytes(32)),
      providers: { live: unconfiguredProvider('live'), sandbox: flaky },
      settings: { maxQuantity: 10, smsFeeUsd: '0.10', rescueAfterMs: 60_000, callOutClaimMs: 110_000 },
    });
    // the one background worker, with this file's order service as its only job type
    const worker = createWorker({
      clock: server.clock,
      jobs: [
        giftcardFulfilmentJob(
          orders,
          createLeases(server.db.kysely, { owner: 'test', leaseMs: 30_000 }),
          1000,
        ),
      ],
    });
    const principal = {
      accountId: client.account.accountId,
      environment: 'sandbox' as const,
      clientId: client.account.clientId,
      scopes: ['developer'],
    };
    const placed = await orders.place(principal, {
      productId: 11,
      quantity: 2,
      unitPrice: 10,
      senderName: 'Ada',
    });
    assert.equal(placed.status, 'PENDING');
    assert.equal(
      (await client.get('/accounts/balance')).body.balance,
      new D(100).minus(placed.amount).toNumber(),
    );

    const failures: unknown[] = [];
    assert.equal(await worker.runDue((error) => failures.push(error)), 0, 'not due before the rescue time');
    server.clock.advance(60_000);
    assert.equal(await worker.runDue((error) => failures.push(error)), 1);
    assert.equal(failures.length, 1, 'the poller reports a step that fails again');
    assert.equal((await client.get(`/reports/transactions/${placed.transactionId}`)).body.status, 'PENDING');
    assert.equal(await worker.runDue(), 0, 'a failed step is tried again later, not at every run');

    down = false;
    server.clock.advance(60_000);
    await worker.runDue((error) => {
      throw error;
    });
    assert.equal(
      (await client.get(`/reports/transactions/${placed.transactionId}`)).body.status,
      'SUCCESSFUL',
    );
    assert.equal(await worker.runDue(), 0, 'a final order is never due again');
    assert.deepEqual(await server.admin.audit(), []);
  });
});

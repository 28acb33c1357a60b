import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { AppError } from '../../src/errors/error-codes.ts';
import type { FulfilmentStep, OrderToFulfil } from '../../src/modules/giftcards/fulfilment/provider.ts';
import { unconfiguredProvider } from '../../src/modules/giftcards/fulfilment/unconfigured-provider.ts';
import { createUpstreamProvider } from '../../src/modules/giftcards/fulfilment/upstream-provider.ts';
import { caPem } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { startTcpProxy, type TcpProxy } from '../harness/tcp-proxy.ts';

// The gift card upstream provider step by step against a real airgift upstream's sandbox, whose
// test products force the outcomes the live catalogue cannot reach yet (they are sandbox-only until
// the catalogue sync): PROCESSING then SUCCESSFUL (21), FAILED then REFUNDED (24), REFUNDED (25), a
// refusal (22 without preOrder: 422; a price not offered: 400). Also: an earlier attempt lost in a
// crash (CUSTOM_IDENTIFIER_ALREADY_USED sends it to the reports), and an unreachable upstream.
const CA = caPem();

let proxy: TcpProxy;
let upstream: TestServer;
let reseller: TestServer;
let upstreamToken: string;
let audience: string;
let nextId = 900_001;

before(async () => {
  proxy = await startTcpProxy();
  upstream = await startTestServer({ env: { PUBLIC_URL: `https://localhost:${proxy.port}` } });
  proxy.setTarget(Number(new URL(upstream.url).port));
  audience = `https://localhost:${proxy.port}/giftcards-sandbox`;
  const account = await upstream.admin.createAccount({ environment: 'sandbox', fund: 1000 });
  upstreamToken = await upstream.admin.token(account, audience);
  reseller = await startTestServer();
  await reseller.runtime.services.upstreams.set('giftcards', {
    url: audience,
    authUrl: `https://localhost:${proxy.port}/auth`,
    clientId: account.clientId,
    clientSecret: account.clientSecret,
    caPem: CA,
  });
});
after(async () => {
  await reseller?.close();
  await upstream?.close();
  await proxy?.close();
});

const provider = () =>
  createUpstreamProvider({
    upstreams: reseller.runtime.services.upstreams,
    unconfigured: unconfiguredProvider('live'),
  });

function anOrder(productId: number, extra: Partial<OrderToFulfil> = {}): OrderToFulfil {
  return {
    transactionId: nextId++,
    productId,
    quantity: 1,
    unitPrice: '10.00',
    preOrder: false,
    createdAt: reseller.clock.now(),
    status: 'PENDING',
    senderName: 'Provider test',
    userId: null,
    firstStep: true,
    ...extra,
  };
}

/**
 * One step outside any transaction, as the order service takes a step that calls out
 * (lib/fulfilment-step.ts): the call records commit on their own.
 */
const step = async (order: OrderToFulfil, p = provider()): Promise<FulfilmentStep> => {
  assert.equal(await p.callsOut?.(order, reseller.db.kysely), true);
  return p.step(order, reseller.clock.now(), reseller.db.kysely);
};

/** Time passes at the upstream and its worker takes the steps that came due (in-process: no poller). */
async function upstreamLater(ms: number) {
  upstream.clock.advance(ms);
  const orders = upstream.runtime.services.giftcards.orders;
  for (const job of await orders.due(upstream.clock.now(), 100)) await orders.stepIfDue(job.id);
}

const callOf = (transactionId: number) =>
  reseller.db.kysely
    .selectFrom('upstream_calls')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();

async function atUpstream(transactionId: number): Promise<any[]> {
  const a = await upstream.http.get(
    `/giftcards-sandbox/reports/transactions?customIdentifier=ag-live-${transactionId}`,
    { token: upstreamToken },
  );
  assert.equal(a.status, 200, a.text);
  return a.body;
}

test('product 21: PROCESSING at the upstream, polled by id until SUCCESSFUL with its codes', async () => {
  const order = anOrder(21);
  const first = await step(order);
  assert.equal(first.status, 'PROCESSING');
  const call = await callOf(order.transactionId);
  assert.equal(call?.state, 'placed');
  assert.equal(call?.custom_identifier, `ag-live-${order.transactionId}`);
  assert.equal(call?.upstream_status, 'PROCESSING');
  await upstreamLater(10_000);
  const next = await step({ ...order, status: 'PROCESSING', firstStep: false });
  assert.equal(next.status, 'SUCCESSFUL');
  const [theirs] = await atUpstream(order.transactionId);
  const cards = await upstream.http.get(
    `/giftcards-sandbox/orders/transactions/${theirs.transactionId}/cards`,
    {
      token: upstreamToken,
    },
  );
  assert.deepEqual(
    next.status === 'SUCCESSFUL' && next.cards,
    cards.body.map((c: any) => ({ cardNumber: String(c.cardNumber), pinCode: String(c.pinCode) })),
  );
  assert.equal((await callOf(order.transactionId))?.state, 'final');
  assert.equal((await atUpstream(order.transactionId)).length, 1);
});

test('product 24: FAILED at the upstream, then REFUNDED; product 25: REFUNDED at once', async () => {
  const failing = anOrder(24);
  assert.equal((await step(failing)).status, 'FAILED');
  await upstreamLater(10_000);
  assert.equal((await step({ ...failing, status: 'FAILED', firstStep: false })).status, 'REFUNDED');
  const refunded = anOrder(25);
  assert.equal((await step(refunded)).status, 'REFUNDED');
  assert.equal((await callOf(refunded.transactionId))?.upstream_status, 'REFUNDED');
});

test("refusals: the upstream's code and status answered (422 out of stock, 400 price not offered)", async () => {
  const outOfStock = anOrder(22);
  const s = await step(outOfStock);
  assert.equal(s.status, 'REFUSED');
  assert.ok(s.status === 'REFUSED' && s.error instanceof AppError);
  assert.equal(s.status === 'REFUSED' && s.error.code, 'UNPROCCESSABLE_ENTITY');
  assert.equal((await callOf(outOfStock.transactionId))?.state, 'refused');
  assert.equal((await atUpstream(outOfStock.transactionId)).length, 0);

  const badPrice = anOrder(11, { unitPrice: '7.00' });
  const b = await step(badPrice);
  assert.equal(b.status === 'REFUSED' && b.error.code, 'INVALID_REQUEST');
  assert.equal(b.status === 'REFUSED' && b.error.status, 400);
});

test('an attempt lost with its record (a crash): CUSTOM_IDENTIFIER_ALREADY_USED leads to the report, bought once', async () => {
  const order = anOrder(11);
  assert.equal((await step(order)).status, 'SUCCESSFUL');
  // the step's transaction never committed: no record of the call
  await reseller.db.kysely
    .deleteFrom('upstream_calls')
    .where('transaction_id', '=', order.transactionId)
    .execute();
  const again = await step({ ...order, firstStep: false });
  assert.equal(again.status, 'SUCCESSFUL');
  assert.equal((await atUpstream(order.transactionId)).length, 1);
  const call = await callOf(order.transactionId);
  assert.equal(call?.state, 'final');
  assert.equal(call?.attempts, 1, 'one POST recorded: the refused second one');
});

test('an unreachable upstream: refused 503 on the placing step, kept PROCESSING on a later one', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const upstreams = reseller.runtime.services.upstreams;
  await upstreams.set('giftcards', {
    url: `https://127.0.0.1:${port}/giftcards-sandbox`,
    authUrl: `https://127.0.0.1:${port}/auth`,
    clientId: 'x',
    clientSecret: 'y',
    caPem: CA,
  });
  try {
    const first = await step(anOrder(11));
    assert.equal(first.status, 'REFUSED');
    assert.equal(
      first.status === 'REFUSED' && first.error.code,
      'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
    );
    const rescued = anOrder(11, { firstStep: false });
    assert.equal((await step(rescued)).status, 'PROCESSING', 'an earlier attempt may have gone out');
    assert.equal((await callOf(rescued.transactionId))?.state, 'unknown');
    const [shown] = await upstreams.show('giftcards');
    assert.match(shown?.health.lastError ?? '', /ECONNREFUSED/);
  } finally {
    await upstreams.set('giftcards', {
      url: audience,
      authUrl: `https://localhost:${proxy.port}/auth`,
      clientId: 'unused',
      clientSecret: 'unused',
      caPem: CA,
    });
  }
});

test('no upstream configured: accept refuses with 422 as before, nothing is called', async () => {
  await reseller.runtime.services.upstreams.remove('giftcards');
  await assert.rejects(
    async () => provider().accept({ productId: 11, preOrder: false, quantity: 1, unitPrice: '10.00' }),
    (e: AppError) => e.code === 'UNPROCCESSABLE_ENTITY' && /no live fulfilment provider/.test(e.message),
  );
  const s = await step(anOrder(11));
  assert.equal(s.status === 'REFUSED' && s.error.code, 'UNPROCCESSABLE_ENTITY');
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, AUDIENCES, CA_FILE } from '../harness/client.ts';
import type { ServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';

/**
 * The backup suites' pieces: the `airgift` command as an operator runs it, an installation with a
 * bit of everything (orders of both products, live orders drawn from a code stock, credentials, a
 * webhook endpoint and its outbox), a load of orders, and a snapshot of everything the APIs show,
 * to compare a restored installation with its source.
 */
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
const run = promisify(execFile);
export const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
export const TOPUPS = { accept: 'application/com.reloadly.topups-v1+json' };
const AMAZON_US = 1840; // live, FIXED 10/25/50/100/200 USD
/** Servers that never attempt a webhook delivery during a test: the outbox rows stay as written. */
export const QUIET_WEBHOOKS = { WEBHOOK_POLL_MS: '3600000' };

/** `airgift ...` with `env` over the test's own (a key variable given as '' is unset). */
export async function airgift(env: Record<string, string>, ...args: string[]) {
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const merged: NodeJS.ProcessEnv = { ...inherited, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
  return run(process.execPath, [BIN, ...args], { env: merged, maxBuffer: 16 << 20 });
}

/** The CLI's connection to a running server process. */
export function cliTo(server: ServerProcess) {
  return {
    AIRGIFT_URL: server.url,
    AIRGIFT_ADMIN_KEY: ADMIN_KEY,
    AIRGIFT_CA_FILE: CA_FILE,
  };
}

export interface Installation {
  sandbox: { accountId: number; clientId: string; clientSecret: string };
  live: { accountId: number; clientId: string; clientSecret: string };
  /** A token the source issued: it still works after a restore only if the signing key came along. */
  sandboxToken: string;
  topupToken: string;
  liveToken: string;
  endpointId: number;
}

/**
 * An account with orders of both products, a second credential, a webhook endpoint (its outbox
 * filled by the orders' triggers) and a live account whose orders draw codes from the stock.
 */
export async function populate(server: ServerProcess): Promise<Installation> {
  const sandbox = await server.admin.ok('POST', '/accounts', {
    name: 'Backed up',
    currency: 'USD',
    country: 'US',
    environment: 'sandbox',
    fund: 5000,
  });
  await server.admin.ok('POST', `/accounts/${sandbox.accountId}/credentials`, { environment: 'sandbox' });
  const endpoint = await server.admin.ok('POST', '/webhooks', {
    accountId: sandbox.accountId,
    environment: 'sandbox',
    url: 'https://hooks.example.com/airgift',
    events: ['*'],
  });
  const sandboxToken = await tokenOf(server, sandbox, AUDIENCES.giftcardsSandbox);
  const topupToken = await tokenOf(server, sandbox, AUDIENCES.topupsSandbox);
  for (let i = 0; i < 4; i++) {
    await order(server, sandboxToken, topupToken, `seed-${i}`, i);
  }
  const live = await server.admin.ok('POST', '/accounts', {
    name: 'Live stock',
    currency: 'USD',
    country: 'US',
    environment: 'live',
    fund: 1000,
  });
  const codes = Array.from({ length: 4 }, (_, i) => `60110009901394${20 + i},${123450 + i},10`);
  await server.admin.ok('POST', `/products/${AMAZON_US}/stock`, {
    csv: `cardNumber,pinCode,faceValue\n${codes.join('\n')}\n`,
  });
  await server.admin.ok('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' });
  const liveToken = await tokenOf(server, live, AUDIENCES.giftcardsLive);
  for (let i = 0; i < 2; i++) {
    const a = await server.http.post(
      '/giftcards/orders',
      {
        productId: AMAZON_US,
        quantity: 1,
        unitPrice: 10,
        senderName: 'Stock',
        customIdentifier: `live-${i}`,
      },
      { token: liveToken, headers: GIFTCARDS },
    );
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.status, 'SUCCESSFUL');
  }
  return { sandbox, live, sandboxToken, topupToken, liveToken, endpointId: endpoint.id };
}

async function tokenOf(
  server: ServerProcess,
  c: { clientId: string; clientSecret: string },
  audience: string,
) {
  const a = await server.http.post('/auth/oauth/token', {
    client_id: c.clientId,
    client_secret: c.clientSecret,
    grant_type: 'client_credentials',
    audience,
  });
  assert.equal(a.status, 200, a.text);
  return a.body.access_token as string;
}

/** One order that completes at once: a gift card of product 11 (even n) or a top-up (odd n). */
async function order(server: ServerProcess, giftcards: string, topups: string, id: string, n: number) {
  const a =
    n % 2 === 0
      ? await server.http.post(
          '/giftcards-sandbox/orders',
          { productId: 11, quantity: 1 + (n % 3), unitPrice: 10, senderName: 'Backup', customIdentifier: id },
          { token: giftcards, headers: GIFTCARDS },
        )
      : await server.http.post(
          '/topups-sandbox/topups',
          {
            operatorId: 1001,
            amount: 5,
            recipientPhone: { countryCode: 'NG', number: `0803${String(1_000_000 + n).slice(-7)}` },
            customIdentifier: id,
          },
          { token: topups, headers: TOPUPS },
        );
  assert.equal(a.status, 200, a.text);
  return {
    kind: n % 2 === 0 ? ('giftcard' as const) : ('topup' as const),
    id: a.body.transactionId as number,
  };
}

/** Orders placed `lanes` at a time until `stop()`; each answered one with when it was answered. */
export function orderLoad(server: ServerProcess, who: Installation, lanes = 2) {
  const answered: { kind: 'giftcard' | 'topup'; id: number; at: number }[] = [];
  let running = true;
  let n = 1000;
  const lane = async () => {
    while (running) {
      const placed = await order(server, who.sandboxToken, who.topupToken, `load-${n}`, n++);
      answered.push({ ...placed, at: performance.now() });
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane));
  return {
    answered,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Waits until the load has answered `count` more orders. */
export async function untilAnswered(load: ReturnType<typeof orderLoad>, count: number) {
  const target = load.answered.length + count;
  const deadline = Date.now() + 60_000;
  while (load.answered.length < target) {
    if (Date.now() > deadline) throw new Error('the order load stopped answering');
    await sleep(20);
  }
}

/**
 * What the APIs show of an installation: accounts with balances and credentials, every report of
 * both products, every gift card order's codes (opened with the card codes key), the code stock,
 * the webhook endpoints and the outbox's deliveries, the ledger of each balance.
 */
export async function snapshot(server: ServerProcess, who: Installation) {
  const get = async (path: string, token: string, headers: Record<string, string>) => {
    const a = await server.http.get(path, { token, headers });
    assert.equal(a.status, 200, `${path}: ${a.status} ${a.text}`);
    return a.body;
  };
  const giftcards = await get(
    '/giftcards-sandbox/reports/transactions?size=1000',
    who.sandboxToken,
    GIFTCARDS,
  );
  const liveOrders = await get('/giftcards/reports/transactions?size=1000', who.liveToken, GIFTCARDS);
  const cards: Record<string, unknown> = {};
  for (const t of giftcards)
    cards[t.transactionId] = await get(
      `/giftcards-sandbox/orders/transactions/${t.transactionId}/cards`,
      who.sandboxToken,
      GIFTCARDS,
    );
  for (const t of liveOrders)
    cards[`live ${t.transactionId}`] = await get(
      `/giftcards/orders/transactions/${t.transactionId}/cards`,
      who.liveToken,
      GIFTCARDS,
    );
  const deliveries = await server.admin.ok('GET', `/webhooks/${who.endpointId}/deliveries?size=200`);
  return {
    accounts: [
      await server.admin.ok('GET', `/accounts/${who.sandbox.accountId}`),
      await server.admin.ok('GET', `/accounts/${who.live.accountId}`),
    ],
    ledger: [
      await server.admin.ok('GET', `/accounts/${who.sandbox.accountId}/ledger?environment=sandbox&size=200`),
      await server.admin.ok('GET', `/accounts/${who.live.accountId}/ledger?environment=live&size=200`),
    ],
    giftcards,
    liveOrders,
    topups: await get('/topups-sandbox/topups/reports/transactions?size=100', who.topupToken, TOPUPS),
    cards,
    stock: (await server.admin.ok('GET', '/stock')).items,
    webhooks: (await server.admin.ok('GET', '/webhooks')).items,
    deliveries: { total: deliveries.total, items: deliveries.items },
  };
}

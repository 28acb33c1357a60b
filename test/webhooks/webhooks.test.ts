import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { nominalRetryDelayMs } from '../../src/modules/webhooks/index.ts';
import type { Caller } from '../harness/client.ts';
import { AUDIENCES, CA_FILE } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.ts';

// Webhooks end to end, on the in-process server with its injected clock: a real HTTPS receiver fails
// the first attempts (500), is down for a while (connections refused), then accepts. Every event of
// the account's gift card orders, top-ups and balance arrives, once accepted, signed so that the
// standardwebhooks package verifies it, with the transaction the reports answer; the delivery log
// shows retries spaced as docs/webhooks.md says. Also: no event for a change that was rolled back,
// replay, removal, and an endpoint failing for 3 days disabled.
let server: TestServer;
let receiver: WebhookReceiver;
before(async () => {
  server = await startTestServer({
    env: {
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_CA_FILE: CA_FILE,
      TOPUP_RECENT_RECHARGE_SECONDS: '0',
    },
  });
  receiver = await startWebhookReceiver({ now: () => server.clock.now().getTime() });
});
after(async () => {
  await receiver.close();
  await server.close();
});

const NG = (n: string) => ({ countryCode: 'NG', number: n });

/** runDue, then move the clock, until `ms` of the server's time has passed. */
async function drive(ms: number, stepMs: number) {
  for (let t = 0; t < ms; t += stepMs) {
    await server.runtime.services.worker.runDue();
    server.clock.advance(stepMs);
  }
  await server.runtime.services.worker.runDue();
}

async function giftcardPoster(c: Caller) {
  const token = await server.admin.token(c.account, AUDIENCES.giftcardsSandbox);
  const headers = { accept: 'application/com.reloadly.giftcards-v1+json' };
  return {
    order: async (productId: number) => {
      const a = await server.http.post(
        '/giftcards-sandbox/orders',
        { productId, quantity: 1, unitPrice: 10, senderName: 'Ada' },
        { token, headers },
      );
      assert.equal(a.status, 200, a.text);
      return a.body.transactionId as number;
    },
    report: async (id: number) =>
      (await server.http.get(`/giftcards-sandbox/reports/transactions/${id}`, { token, headers })).body,
  };
}

/** A funded top-up caller of the sandbox and a webhook of its account for `events` at `url`. */
async function subscribed(fund: number, url: string, events: string[]) {
  const c = await server.caller('topups', 'sandbox', { fund });
  const added = await server.admin.call('POST', '/webhooks', {
    accountId: c.account.accountId,
    environment: 'sandbox',
    url,
    events,
  });
  return { c, added };
}

describe('webhooks', () => {
  test('every event arrives signed through failures and an outage, retries spaced as documented', async () => {
    const { c, added } = await subscribed(1000, receiver.url, ['giftcard.order.*', 'topup.*', 'balance.*']);
    const accountId = c.account.accountId;
    assert.equal(added.status, 200, added.text);
    assert.match(added.body.secret, /^whsec_[A-Za-z0-9+/=]+$/);
    const listed = await server.admin.call('GET', `/webhooks?accountId=${accountId}`);
    assert.equal(listed.body.items.length, 1);
    assert.equal('secret' in listed.body.items[0], false, 'the secret is shown once only');
    receiver.mode = 'fail';
    const gc = await giftcardPoster(c);
    const successful = await gc.order(11);
    const refundedAtOnce = await gc.order(25);
    const failedThenRefunded = await gc.order(24);
    const topupOk = await c.post('/topups', {
      operatorId: 1001,
      amount: 10,
      recipientPhone: NG('08031234567'),
    });
    assert.equal(topupOk.body.status, 'SUCCESSFUL', topupOk.text);
    // balance.low: the next debit takes the balance under the threshold (once: later changes go up)
    const before = (await c.get('/accounts/balance')).body.balance as number;
    const threshold = await server.admin.call('PUT', `/accounts/${accountId}/balance-threshold`, {
      environment: 'sandbox',
      threshold: String(Math.floor(before) - 1),
    });
    assert.equal(threshold.status, 200, threshold.text);
    const topupLater = await c.post('/topups', {
      operatorId: 1001,
      amount: 10,
      recipientPhone: NG('08031299991'),
    });
    assert.equal(topupLater.body.status, 'PROCESSING', topupLater.text);
    const funded = await server.admin.call('POST', `/accounts/${accountId}/fund`, {
      environment: 'sandbox',
      amount: '50',
      reason: 'top up',
    });
    assert.equal(funded.status, 200, funded.text);

    // 500s for 40 s (gift card 24 is refunded at 5 s, top-up 99991 at 30 s), down for 10 min, then up
    await drive(40_000, 2_000);
    await receiver.setDown(true);
    await drive(600_000, 20_000);
    await receiver.setDown(false);
    receiver.mode = 'accept';
    for (let i = 0; i < 24 * 12; i++) {
      await drive(300_000, 60_000);
      const pending = await server.db.kysely
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'PENDING')
        .execute();
      if (pending.length === 0) break;
    }

    const verified = receiver.verified(added.body.secret);
    assert.ok(verified.length > 0);
    assert.ok(
      verified.every((v) => v.ok),
      'every accepted request verifies with the standardwebhooks package',
    );
    const got = verified.map((v) => `${v.payload.type} ${v.payload.data.transactionId ?? 'balance'}`).sort();
    const expected = [
      `giftcard.order.successful ${successful}`,
      `giftcard.order.refunded ${refundedAtOnce}`,
      `giftcard.order.failed ${failedThenRefunded}`,
      `giftcard.order.refunded ${failedThenRefunded}`,
      `topup.successful ${topupOk.body.transactionId}`,
      `topup.refunded ${topupLater.body.transactionId}`,
      'balance.low balance',
      'balance.funded balance',
    ].sort();
    assert.deepEqual(got, expected, 'every event once (each delivered once: accepted at the first success)');

    // the payload carries the transaction the reports endpoint answers
    for (const v of verified.filter((x) => x.payload.type === 'giftcard.order.successful')) {
      assert.deepEqual(v.payload.data, await gc.report(successful));
    }
    const topupData = verified.find((v) => v.payload.type === 'topup.refunded')?.payload.data;
    const topupReport = await c.get(`/topups/reports/transactions/${topupLater.body.transactionId}`);
    assert.deepEqual(topupData, topupReport.body);
    const low = verified.find((v) => v.payload.type === 'balance.low')?.payload.data;
    assert.ok(
      low.balance < Math.floor(before) - 1 && typeof low.currencyCode === 'string',
      JSON.stringify(low),
    );

    // one webhook-id per event, the same on every attempt
    const idsByEvent = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const body = JSON.parse(r.body);
      const key = `${body.type} ${body.data.transactionId ?? body.timestamp}`;
      idsByEvent.set(key, (idsByEvent.get(key) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    assert.ok([...idsByEvent.values()].every((ids) => ids.size === 1));
    assert.ok(
      receiver.received.some((r) => r.answered === 500),
      'the first attempts failed',
    );

    // the delivery log: every retry at its documented delay (±20 % jitter), none early
    const log = await server.admin.call('GET', `/webhooks/${added.body.id}/deliveries?size=50`);
    assert.equal(log.status, 200, log.text);
    assert.equal(log.body.total, 8);
    let retries = 0;
    for (const d of log.body.items) {
      assert.equal(d.status, 'DELIVERED', JSON.stringify(d));
      assert.ok(d.log.length >= 3, `delivery ${d.id}: failed first, then delivered`);
      assert.ok(
        d.log.some((a: any) => a.statusCode === null && a.error),
        'an attempt while the receiver was down',
      );
      for (const [i, a] of d.log.entries()) {
        const next = d.log[i + 1];
        if (!next) {
          assert.equal(a.statusCode, 204);
          assert.equal(a.nextAttemptAt, null);
          continue;
        }
        const nominal = nominalRetryDelayMs(a.attempt) as number;
        const planned = Date.parse(a.nextAttemptAt) - Date.parse(a.at);
        assert.ok(planned >= nominal * 0.8 && planned <= nominal * 1.2, `retry ${a.attempt}: ${planned} ms`);
        assert.ok(Date.parse(next.at) >= Date.parse(a.nextAttemptAt), 'never before its time');
        assert.ok(typeof a.latencyMs === 'number');
        retries += 1;
      }
    }
    assert.ok(retries >= 8 * 2);
  });

  test('rows written together in one statement (a batch) get their events each, in id order; a threshold crossed among them tells once', async () => {
    const { c, added } = await subscribed(1000, receiver.url, ['*']);
    const accountId = c.account.accountId;
    assert.equal(added.status, 200, added.text);
    const threshold = await server.admin.call('PUT', `/accounts/${accountId}/balance-threshold`, {
      environment: 'sandbox',
      threshold: '997',
    });
    assert.equal(threshold.status, 200, threshold.text);
    const events = (db: Kysely<Database>) =>
      db
        .selectFrom('webhook_events')
        .select(['type', 'subject_id'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
    // One statement of four entries (rolled back after): 999 and 998 stay above the threshold,
    // 996 crosses it, 995 is already under, a funding entry follows.
    await server.db.kysely
      .transaction()
      .execute(async (trx) => {
        const before = (await events(trx)).length;
        const { rows } = await sql<{ id: string }>`
          INSERT INTO ledger_entries (account_id, environment, kind, amount, balance_after, currency_code, reason)
          SELECT ${accountId}, 'sandbox', e.kind, e.amount, e.after, 'USD', 'test'
          FROM (VALUES ('ADJUSTMENT', -1, 999, 1), ('ADJUSTMENT', -1, 998, 2), ('ADJUSTMENT', -2, 996, 3),
                       ('ADJUSTMENT', -1, 995, 4), ('FUNDING', 5, 1000, 5)) AS e (kind, amount, after, ord)
          ORDER BY e.ord
          RETURNING id::text`.execute(trx);
        const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
        const told = (await events(trx)).slice(before).map((e) => `${e.type} ${Number(e.subject_id)}`);
        assert.deepEqual(told, [`balance.low ${ids[2]}`, `balance.funded ${ids[4]}`]);
        throw new Error('roll back');
      })
      .catch((error) => assert.equal(error.message, 'roll back'));

    // Orders sent at once (batched where they meet): one event per order, in the orders' id order.
    const gc = await giftcardPoster(c);
    const ids = await Promise.all(Array.from({ length: 8 }, () => gc.order(11)));
    const ofOrders = (await events(server.db.kysely))
      .filter((e) => e.type === 'giftcard.order.successful')
      .map((e) => Number(e.subject_id));
    assert.deepEqual(
      ofOrders,
      [...ids].sort((a, b) => a - b),
    );
  });

  test('a change that is rolled back writes no event; replay sends the same webhook-id again', async () => {
    const { c, added } = await subscribed(5, receiver.url, ['*']);
    const events = () =>
      server.db.kysely
        .selectFrom('webhook_events')
        .select(['id', 'type'])
        .where('account_id', '=', c.account.accountId)
        .execute();
    const gc = await giftcardPoster(c);
    const refused = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' },
      {
        token: await server.admin.token(c.account, AUDIENCES.giftcardsSandbox),
        headers: { accept: 'application/json' },
      },
    );
    assert.equal(refused.body.errorCode, 'INSUFFICIENT_BALANCE', refused.text);
    const unavailable = await c.post('/topups', {
      operatorId: 1001,
      amount: 4,
      recipientPhone: NG('08031299993'),
    });
    assert.equal(unavailable.status, 503, unavailable.text);
    assert.deepEqual(await events(), [], 'nothing committed, nothing to tell');

    await server.admin.call('POST', `/accounts/${c.account.accountId}/fund`, {
      environment: 'sandbox',
      amount: '20',
      reason: 'x',
    });
    const id = await gc.order(11);
    assert.deepEqual((await events()).map((e) => e.type).sort(), [
      'balance.funded',
      'giftcard.order.successful',
    ]);
    receiver.mode = 'accept';
    await server.runtime.services.worker.runDue();
    const log = await server.admin.call('GET', `/webhooks/${added.body.id}/deliveries`);
    const delivered = log.body.items.find((d: any) => d.type === 'giftcard.order.successful');
    assert.equal(delivered.status, 'DELIVERED');
    assert.equal(delivered.subjectId, id);

    const replayed = await server.admin.call('POST', `/webhooks/deliveries/${delivered.id}/replay`);
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.eventId, delivered.eventId);
    await server.runtime.services.worker.runDue();
    const copies = receiver.received.filter((r) => r.headers['webhook-id'] === delivered.eventId);
    assert.equal(copies.length, 2, 'delivered, then replayed with the same webhook-id');

    const removed = await server.admin.call('DELETE', `/webhooks/${added.body.id}`);
    assert.equal(removed.status, 200);
    const listed = await server.admin.call('GET', `/webhooks?accountId=${c.account.accountId}`);
    assert.deepEqual(listed.body.items, []);
  });

  test('an endpoint failing for 3 days is disabled, visibly; its deliveries end', async () => {
    // nothing listens on port 9: every attempt is refused
    const { c, added } = await subscribed(5, 'https://localhost:9/hooks', ['balance.funded']);
    assert.equal(added.status, 200, added.text);
    // an event every 20 h keeps attempts coming; after 3 days of nothing but failures it is disabled
    for (let day = 0; day < 5; day++) {
      await server.admin.call('POST', `/accounts/${c.account.accountId}/fund`, {
        environment: 'sandbox',
        amount: '1',
        reason: 'x',
      });
      await drive(20 * 3600_000, 3600_000);
    }
    const listed = await server.admin.call('GET', `/webhooks?accountId=${c.account.accountId}`);
    const endpoint = listed.body.items[0];
    assert.ok(endpoint.disabledAt, JSON.stringify(endpoint));
    assert.match(endpoint.disabledReason, /3 days/);
    const span = Date.parse(endpoint.disabledAt) - Date.parse(endpoint.failingSince);
    assert.ok(span >= 3 * 24 * 3600_000 && span < 4 * 24 * 3600_000, String(span));
    const log = await server.admin.call('GET', `/webhooks/${added.body.id}/deliveries?size=50`);
    assert.ok(log.body.items.every((d: any) => d.status !== 'PENDING'));
    assert.ok(log.body.items.some((d: any) => d.lastError === 'endpoint disabled'));
  });

  test('private and loopback targets are refused without WEBHOOKS_ALLOW_PRIVATE', async () => {
    const { checkTargetUrl, guardedLookup, isPrivateAddress } = await import(
      '../../src/modules/webhooks/target-guard.ts'
    );
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://192.168.0.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'http://hooks.example.com/x',
    ]) {
      assert.throws(() => checkTargetUrl(url, { allowPrivate: false }), /not allowed/, url);
    }
    assert.equal(
      checkTargetUrl('https://hooks.example.com/x', { allowPrivate: false }),
      'https://hooks.example.com/x',
    );
    assert.equal(isPrivateAddress('93.184.215.14'), false);
    // at connection time, on the address DNS gives: a name resolving to loopback is refused
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (e) => resolve(e)),
    );
    assert.match(String(error?.message), /private address/);
  });
});

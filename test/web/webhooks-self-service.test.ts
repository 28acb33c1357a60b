import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';
import { dashboardSession, type WebSession } from '../harness/web-session.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.ts';

/**
 * Webhooks self-service on the dashboard (issue 28), without a browser: a customer adds an endpoint
 * per environment (the secret answered once), sends a test event that arrives at a real HTTPS
 * receiver through the worker, signed so that the standardwebhooks package verifies it, reads the
 * delivery log, replays, rotates the secret and removes the endpoint; another account's customer
 * finds none of it (404). The URL rules are the admin API's.
 */
let server: TestServer;
let receiver: WebhookReceiver;
let customer: WebSession;
let stranger: WebSession;
let accountId: number;

before(async () => {
  server = await startTestServer({
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_CA_FILE: join(CACHE_DIR, 'tls', 'ca.crt') },
  });
  receiver = await startWebhookReceiver({ now: () => server.clock.now().getTime() });
  accountId = (await server.admin.createAccount({ fund: 100 })).accountId;
  const other = await server.admin.createAccount({ fund: 100 });
  customer = await dashboardSession(server, accountId, 'hooks@example.com');
  stranger = await dashboardSession(server, other.accountId, 'stranger@example.com');
});
after(async () => {
  await receiver?.close();
  await server?.close();
});

const runDue = () => server.runtime.services.worker.runDue();

describe('webhooks on the dashboard', () => {
  let endpointId = 0;
  let secret = '';
  let deliveryId = 0;

  test('an endpoint per environment, its secret answered once and never listed', async () => {
    const added = await customer.post('/api/webhooks', {
      environment: 'sandbox',
      url: receiver.url,
      events: ['giftcard.order.*', 'topup.successful'],
    });
    assert.equal(added.status, 200, added.text);
    assert.match(added.body.secret, /^whsec_/);
    assert.equal(added.body.accountId, accountId);
    endpointId = added.body.id;
    secret = added.body.secret;
    const live = await customer.post('/api/webhooks', {
      environment: 'live',
      url: receiver.url,
      events: ['*'],
    });
    assert.equal(live.status, 200, live.text);

    const sandbox = await customer.get('/api/webhooks?environment=sandbox');
    assert.equal(sandbox.status, 200, sandbox.text);
    assert.deepEqual(
      sandbox.body.items.map((e: { id: number }) => e.id),
      [endpointId],
    );
    assert.ok(sandbox.body.eventTypes.includes('balance.low'));
    assert.equal(sandbox.text.includes('whsec_'), false, 'the list never shows a secret');
    const liveList = await customer.get('/api/webhooks?environment=live');
    assert.deepEqual(
      liveList.body.items.map((e: { id: number }) => e.id),
      [live.body.id],
    );
    assert.deepEqual((await stranger.get('/api/webhooks?environment=sandbox')).body.items, []);
  });

  test('the URL and event rules are the admin API’s', async () => {
    for (const [body, field] of [
      [{ environment: 'sandbox', url: 'http://hooks.example.com/x', events: ['*'] }, 'url'],
      [{ environment: 'sandbox', url: 'https://user:pw@hooks.example.com/x', events: ['*'] }, 'url'],
      [
        { environment: 'sandbox', url: 'https://hooks.example.com/x', events: ['giftcard.nothing'] },
        'events',
      ],
    ] as const) {
      const refused = await customer.post('/api/webhooks', body);
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.details[0].field, field);
    }
  });

  test('a test event arrives signed through the worker, is logged, and replays', async () => {
    const sent = await customer.post(`/api/webhooks/${endpointId}/test`);
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.status, 'PENDING');
    await runDue();
    const verified = receiver.verified(secret);
    assert.equal(verified.length, 1);
    assert.ok(verified[0].ok, 'the signature verifies with the secret shown at creation');
    assert.equal(verified[0].payload.type, 'webhook.test');
    assert.equal(verified[0].payload.data.endpointId, endpointId);
    assert.equal(verified[0].r.headers['webhook-id'], sent.body.eventId);

    const log = await customer.get(`/api/webhooks/${endpointId}/deliveries`);
    assert.equal(log.status, 200, log.text);
    assert.equal(log.body.total, 1);
    const [delivery] = log.body.items;
    assert.equal(delivery.status, 'DELIVERED');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.log[0].statusCode, 204);
    deliveryId = delivery.id;

    const replayed = await customer.post(`/api/webhooks/deliveries/${deliveryId}/replay`);
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.eventId, sent.body.eventId, 'the same webhook-id');
    await runDue();
    const again = receiver.verified(secret);
    assert.equal(again.length, 2);
    assert.ok(again[1].ok);
    assert.equal(again[1].r.headers['webhook-id'], sent.body.eventId);
    assert.equal((await customer.get(`/api/webhooks/${endpointId}/deliveries`)).body.total, 2);
  });

  test("another account's endpoint and delivery are not found", async () => {
    for (const path of [
      `/api/webhooks/${endpointId}/test`,
      `/api/webhooks/${endpointId}/rotate-secret`,
      `/api/webhooks/${endpointId}/remove`,
      `/api/webhooks/deliveries/${deliveryId}/replay`,
    ]) {
      const answer = await stranger.post(path);
      assert.equal(answer.status, 404, `${path}: ${answer.text}`);
    }
    const log = await stranger.get(`/api/webhooks/${endpointId}/deliveries`);
    assert.equal(log.status, 404, log.text);
    assert.equal((await customer.get('/api/webhooks?environment=sandbox')).body.items.length, 1);
  });

  test('a rotated secret signs what follows; the old one verifies nothing new', async () => {
    const rotated = await customer.post(`/api/webhooks/${endpointId}/rotate-secret`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, secret);
    const before = receiver.received.length;
    assert.equal((await customer.post(`/api/webhooks/${endpointId}/test`)).status, 200);
    await runDue();
    assert.equal(receiver.received.length, before + 1);
    assert.equal(receiver.verified(rotated.body.secret).at(-1)?.ok, true);
    assert.equal(receiver.verified(secret).at(-1)?.ok, false);
  });

  test('a removed endpoint is gone: no list line, no test event', async () => {
    const removed = await customer.post(`/api/webhooks/${endpointId}/remove`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.id, endpointId);
    assert.deepEqual((await customer.get('/api/webhooks?environment=sandbox')).body.items, []);
    assert.equal((await customer.post(`/api/webhooks/${endpointId}/test`)).status, 404);
    assert.equal((await customer.post(`/api/webhooks/${endpointId}/remove`)).status, 404);
  });
});

describe('roles', () => {
  test('a developer manages webhooks; finance, support and a viewer are refused (403)', async () => {
    const setRole = (userId: number, role: string) =>
      sql`UPDATE web_users SET role = ${role} WHERE id = ${userId}`.execute(server.db.kysely);
    const dev = await dashboardSession(server, accountId, 'dev@example.com');
    await setRole(dev.userId, 'developer');
    const added = await dev.post('/api/webhooks', {
      environment: 'sandbox',
      url: receiver.url,
      events: ['*'],
    });
    assert.equal(added.status, 200, added.text);
    assert.equal((await dev.post(`/api/webhooks/${added.body.id}/test`)).status, 200);
    for (const role of ['finance', 'support', 'viewer']) {
      const user = await dashboardSession(server, accountId, `${role}@example.com`);
      await setRole(user.userId, role);
      const list = await user.get('/api/webhooks?environment=sandbox');
      assert.equal(list.status, 403, `${role}: ${list.text}`);
      assert.equal(list.body.errorCode, 'ROLE_NOT_ALLOWED');
      assert.equal((await user.post(`/api/webhooks/${added.body.id}/remove`)).status, 403, role);
    }
    assert.equal((await dev.post(`/api/webhooks/${added.body.id}/remove`)).status, 200);
  });
});

describe('without WEBHOOKS_ALLOW_PRIVATE (production)', () => {
  test('a loopback or private target is refused, as on the admin API', async () => {
    const strict = await startTestServer();
    try {
      const id = (await strict.admin.createAccount({ fund: 1 })).accountId;
      const user = await dashboardSession(strict, id, 'strict@example.com');
      for (const url of ['https://localhost/hook', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook']) {
        const refused = await user.post('/api/webhooks', { environment: 'live', url, events: ['*'] });
        assert.equal(refused.status, 400, `${url}: ${refused.text}`);
        const admin = await strict.admin.call('POST', '/webhooks', {
          accountId: id,
          environment: 'live',
          url,
          events: ['*'],
        });
        assert.equal(admin.status, 400, `${url} on the admin API: ${admin.text}`);
        assert.equal(refused.body.message, admin.body.message);
      }
    } finally {
      await strict.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Caller } from '../harness/client.ts';
import { CA_FILE } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { AMAZON_US, sellFromStock, stockOrder } from './stock-orders.ts';

// Issue 26: GET|POST /orders/transactions/{transactionId}/deliveries on the gift card bases: the
// delivery log (messages, statuses, reveals), a resend to a corrected address with a new link (the
// old one dead), one resend per 30 s per order, another account's order a 404, sandbox messages
// captured; the webhook events giftcard.delivery.sent and .failed.
let server: TestServer;
let mail: MailServer;
let receiver: WebhookReceiver;

before(async () => {
  mail = await startMailServer();
  server = await startTestServer({
    env: {
      SMTP_URL: mail.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_CA_FILE: CA_FILE,
    },
  });
  receiver = await startWebhookReceiver({ now: () => server.clock.now().getTime() });
  await sellFromStock(server);
});
after(async () => {
  await server?.close();
  await mail?.close();
  await receiver?.close();
});

const liveOrder = async (client: Caller, body: Record<string, unknown>) =>
  (await stockOrder(server, client, body)).id;
const linkTo = (address: string) =>
  mail.received
    .filter((r) => r.envelopeTo.includes(address))
    .map((r) => /https:\/\/localhost(\/r\/[A-Za-z0-9_-]{32})/.exec(r.mail.text ?? '')?.[1] as string);
const page = (path: string) => server.http.call('GET', path, { headers: { accept: 'text/html' } });

describe('deliveries API', () => {
  test('the log, a resend to a corrected address (new link, old one dead), 30 s between resends', async () => {
    const client = await server.caller('giftcards', 'live', { fund: 1000 });
    const id = await liveOrder(client, { recipientEmail: 'typo@exmaple.org' });
    await server.runtime.services.worker.runDue();
    const log = await client.get(`/orders/transactions/${id}/deliveries`);
    assert.equal(log.status, 200, log.text);
    assert.equal(log.body.transactionId, id);
    assert.equal(log.body.deliveries.length, 1);
    const [first] = log.body.deliveries;
    assert.equal(first.kind, 'giftcard_email');
    assert.equal(first.channel, 'email');
    assert.equal(first.address, 'typo@exmaple.org');
    assert.equal(first.status, 'sent');
    assert.equal(first.attempts, 1);
    assert.match(first.sentAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(log.body.reveals, []);
    const [oldLink] = linkTo('typo@exmaple.org');
    assert.equal((await page(oldLink)).status, 200);

    const bad = await client.post(`/orders/transactions/${id}/deliveries`, {
      recipientEmail: 'not an address',
    });
    assert.equal(bad.status, 400);
    const resent = await client.post(`/orders/transactions/${id}/deliveries`, {
      recipientEmail: 'grace@example.org',
    });
    assert.equal(resent.status, 200, resent.text);
    const tooSoon = await client.post(`/orders/transactions/${id}/deliveries`, {});
    assert.equal(tooSoon.status, 429, tooSoon.text);
    assert.equal(tooSoon.body.errorCode, 'DELIVERY_RESEND_TOO_SOON');
    assert.deepEqual(
      (await client.get(`/orders/transactions/${id}/deliveries`)).body.deliveries.map(
        (d: { address: string; status: string }) => [d.address, d.status],
      ),
      [
        ['typo@exmaple.org', 'sent'],
        ['grace@example.org', 'queued'],
      ],
    );
    assert.equal((await page(oldLink)).status, 404, 'the old link died with the resend');
    await server.runtime.services.worker.runDue();
    const [newLink] = linkTo('grace@example.org');
    assert.ok(newLink && newLink !== oldLink);
    assert.equal((await page(newLink)).status, 200);
    const report = await client.get(`/reports/transactions/${id}`);
    assert.equal(report.body.recipientEmail, 'grace@example.org', 'the order shows the corrected address');
    server.clock.advance(31_000);
    assert.equal(
      (await client.post(`/orders/transactions/${id}/deliveries`, {})).status,
      200,
      'again after 30 s',
    );
  });

  test("another account's order is a 404; a phone cannot be added to an order placed without one", async () => {
    const owner = await server.caller('giftcards', 'live', { fund: 1000 });
    const other = await server.caller('giftcards', 'live', { fund: 1000 });
    const id = await liveOrder(owner, { recipientEmail: 'mine@example.org' });
    assert.equal((await other.get(`/orders/transactions/${id}/deliveries`)).status, 404);
    assert.equal((await other.post(`/orders/transactions/${id}/deliveries`, {})).status, 404);
    const phone = await owner.post(`/orders/transactions/${id}/deliveries`, {
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
    });
    assert.equal(phone.status, 422, phone.text);
  });

  test('sandbox: captured, shown by the API, with giftcard.delivery.sent and .failed webhooks', async () => {
    const client = await server.caller('giftcards');
    const endpoint = await server.admin.call('POST', '/webhooks', {
      accountId: client.account.accountId,
      environment: 'sandbox',
      url: receiver.url,
      events: ['giftcard.delivery.*'],
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    const order = async (recipientEmail: string) => {
      const a = await client.post('/orders', {
        productId: AMAZON_US,
        quantity: 1,
        unitPrice: 25,
        senderName: 'Ada',
        recipientEmail,
      });
      assert.equal(a.status, 200, a.text);
      return a.body.transactionId as number;
    };
    const ok = await order('sandbox@example.org');
    const bounced = await order('x@bounce.airgift.test');
    await server.runtime.services.worker.runDue();
    await server.runtime.services.worker.runDue();
    const captured = (await client.get(`/orders/transactions/${ok}/deliveries`)).body.deliveries[0];
    assert.equal(captured.status, 'captured');
    const failed = (await client.get(`/orders/transactions/${bounced}/deliveries`)).body.deliveries[0];
    assert.equal(failed.status, 'failed');
    assert.match(failed.lastError, /bounces/);
    const events = receiver.received.map((r) => JSON.parse(r.body));
    const sent = events.find((e) => e.type === 'giftcard.delivery.sent' && e.data.transactionId === ok);
    assert.ok(sent, 'giftcard.delivery.sent');
    assert.deepEqual(sent.data, captured);
    const fail = events.find(
      (e) => e.type === 'giftcard.delivery.failed' && e.data.transactionId === bounced,
    );
    assert.ok(fail, 'giftcard.delivery.failed');
    assert.equal(fail.data.status, 'failed');
    assert.equal(mail.received.filter((r) => r.envelopeTo.includes('sandbox@example.org')).length, 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { AUDIENCES } from '../harness/client.ts';
import { until } from '../harness/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.ts';
import { operatorPage, signedInSuite, skipWithoutChromium } from './browser.ts';

/**
 * Issue 28 in a real browser: a developer adds a webhook endpoint on the dashboard (the secret shown
 * once), sends a test event that a real HTTPS receiver gets signed through the server's own worker,
 * reads the delivery log and replays; a transaction's own page (a gift card order, a top-up) shows the
 * receipt and prints without the navigation. axe finds nothing serious or critical, and no page
 * overflows sideways at 1280 or 390 px.
 */
describe('the webhooks page and a transaction page in a browser', { skip: skipWithoutChromium }, () => {
  let receiver: WebhookReceiver;

  // the receiver first: the server is told its CA
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  const suite = signedInSuite({
    env: () => ({
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_CA_FILE: receiver.caFile,
      WEBHOOK_POLL_MS: '200',
    }),
  });
  after(async () => {
    await receiver?.close();
  });

  /** axe at 1280 px, then no sideways overflow at 1280 and 390 px. */
  async function check(page: Page, name: string) {
    await page.setViewportSize({ width: 1280, height: 860 });
    await suite.findings.check(page, name);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${name} overflows by ${overflow}px at ${width}px`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  }

  /** The harness's polling loop, at this suite's pace: every 200 ms, for 15 s at the most. */
  const poll = (what: string, probe: () => Promise<boolean>) => until(what, probe, 15_000, 200);

  test('a developer adds an endpoint, sends a test event that arrives signed, and replays it', async () => {
    const page = suite.customer;
    await page.goto('/dashboard/#/webhooks?environment=sandbox');
    await page.getByRole('heading', { name: 'Add an endpoint (sandbox)' }).waitFor();
    await check(page, 'webhooks, empty');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('topup.successful').check();
    await page.getByLabel('giftcard.order.successful').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) as string;
    assert.match(secret, /^whsec_/);
    await page.getByText('it is shown only once').waitFor();
    await check(page, 'webhooks, secret shown');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: receiver.url, exact: true }).waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'the secret is not shown again');

    await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
    await page.getByText(/Test event evt_\d+ queued/).waitFor();
    await poll('the signed test event', async () => receiver.verified(secret).some((r) => r.ok));
    const [first] = receiver.verified(secret);
    assert.equal(first.payload.type, 'webhook.test');
    await check(page, 'webhooks, endpoints');

    await page.getByRole('link', { name: `Deliveries of ${receiver.url}` }).click();
    const delivered = page
      .getByRole('row')
      .filter({ hasText: 'webhook.test' })
      .filter({ hasText: 'DELIVERED' });
    await poll('the delivery log', async () => {
      if ((await delivered.count()) > 0) return true;
      await page.reload();
      await page.locator('main h1 + div').waitFor();
      return false;
    });
    assert.match((await delivered.first().textContent()) as string, /204/);
    await check(page, 'webhook deliveries');
    await page
      .getByRole('button', { name: /^Replay delivery \d+ \(webhook\.test\)$/ })
      .first()
      .click();
    await poll('the replayed event', async () => receiver.verified(secret).filter((r) => r.ok).length >= 2);
    const again = receiver.verified(secret).filter((r) => r.ok);
    assert.equal(again[1].r.headers['webhook-id'], again[0].r.headers['webhook-id'], 'the same event');
  });

  test("a gift card order's and a top-up's own pages: the receipt, printable, no codes", async () => {
    const page = suite.customer;
    const token = await suite.server.token(AUDIENCES.giftcardsSandbox);
    const order = await suite.server.http.post(
      '/giftcards-sandbox/orders',
      {
        productId: 11,
        quantity: 1,
        unitPrice: 10,
        senderName: 'Browser',
        customIdentifier: 'browser-receipt-1',
        recipientEmail: 'friend@example.com',
      },
      {
        token,
        headers: {
          accept: 'application/com.reloadly.giftcards-v1+json',
          'x-request-id': 'req-browser-receipt',
        },
      },
    );
    assert.equal(order.status, 200, order.text);
    const id = order.body.transactionId as number;
    await page.goto('/dashboard/#/transactions?environment=sandbox');
    await page.getByRole('link', { name: `Gift card order ${id}`, exact: true }).click();
    await page.getByRole('heading', { name: new RegExp(`^Gift card order ${id}`) }).waitFor();
    await page.getByText('browser-receipt-1').waitFor();
    await page.getByText('friend@example.com').first().waitFor();
    await page.getByRole('row', { name: /Total charged/ }).waitFor();
    await page.getByRole('heading', { name: 'Deliveries to the recipient' }).waitFor();
    // the request log is written off the request path, within a moment
    await poll('the request id', async () => {
      if ((await page.getByText('req-browser-receipt').count()) > 0) return true;
      await page.reload();
      await page.locator('main h1 + div').waitFor();
      return false;
    });
    await check(page, 'gift card transaction');
    const codes = await suite.server.http.get(`/giftcards-sandbox/orders/transactions/${id}/cards`, {
      token,
      headers: { accept: 'application/com.reloadly.giftcards-v1+json' },
    });
    const text = (await page.locator('main').textContent()) as string;
    for (const card of codes.body ?? []) assert.equal(text.includes(card.cardNumber), false, 'no code');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('nav').isVisible(), false, 'printed without the navigation');
    assert.equal(await page.getByRole('button', { name: 'Print receipt' }).isVisible(), false);
    assert.equal(
      await page.getByRole('heading', { name: new RegExp(`^Gift card order ${id}`) }).isVisible(),
      true,
    );
    await page.emulateMedia({ media: 'screen' });

    const topupToken = await suite.server.token(AUDIENCES.topupsSandbox);
    const topup = await suite.server.http.post(
      '/topups-sandbox/topups',
      { operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031234567' } },
      { token: topupToken, headers: { accept: 'application/com.reloadly.topups-v1+json' } },
    );
    assert.equal(topup.status, 200, topup.text);
    await page.goto('/dashboard/#/transactions?environment=sandbox&product=topups');
    await page.getByRole('link', { name: `Top-up ${topup.body.transactionId}`, exact: true }).click();
    await page.getByRole('heading', { name: new RegExp(`^Top-up ${topup.body.transactionId}`) }).waitFor();
    await page.getByText(/^1 USD = [\d.]+ NGN$/).waitFor();
    await page.getByRole('cell', { name: 'ORDER_DEBIT' }).waitFor();
    await check(page, 'top-up transaction');
  });

  test("the operator opens the same receipt from the console's transactions", async () => {
    const ops = await operatorPage(suite, 'receipts-ops@example.com', 'support passphrase 2');
    await ops.goto('/console/#/transactions?environment=sandbox&product=giftcards');
    await ops
      .getByRole('link', { name: /^Gift card order \d+$/ })
      .first()
      .click();
    await ops.getByRole('heading', { name: /^Gift card order \d+/ }).waitFor();
    await ops.getByText('browser-receipt-1').waitFor();
    await ops.getByRole('link', { name: `Account ${suite.server.credentials.accountId}` }).waitFor();
    await check(ops, 'console transaction');
    assert.deepEqual(suite.findings.axe, []);
    assert.deepEqual(suite.findings.csp, []);
  });
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { messagesOfOrder, sellFromStock, stockOrder } from './stock-orders.ts';

// Issue 26: a live order with recipientEmail e-mails its recipient through a real SMTP server
// (smtp-server, read back with mailparser): headers, both parts, DKIM, the link and no code; the
// redeem page reveals only on POST; a mail server refusing for a while delivers once in the end.
let server: TestServer;
let mail: MailServer;

async function liveOrder(body: Record<string, unknown>) {
  const client = await server.caller('giftcards', 'live', { fund: 10_000 });
  const order = await stockOrder(server, client, { senderName: 'Ada <Lovelace>', ...body });
  assert.equal(order.placed.status, 'SUCCESSFUL');
  return { client, ...order };
}

const messagesOf = (id: number) => messagesOfOrder(server, id);
const mailsTo = (address: string) => mail.received.filter((r) => r.envelopeTo.includes(address));
const linkIn = (text: string) => {
  const m = /https:\/\/localhost\/r\/([A-Za-z0-9_-]{32})/.exec(text);
  assert.ok(m, `a redeem link in: ${text}`);
  return m[1];
};
const page = (token: string, method = 'GET', form?: Record<string, string>) =>
  server.http.call(method, `/r/${token}${method === 'POST' && form?.path ? form.path : ''}`, {
    headers: {
      accept: 'text/html',
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    rawBody: form
      ? new URLSearchParams(Object.entries(form).filter(([k]) => k !== 'path')).toString()
      : undefined,
  });
const formTokenIn = (html: string) => {
  const m = /name="form" value="([^"]+)"/.exec(html);
  assert.ok(m, 'the page has a form token');
  return m[1].replace(/&amp;/g, '&');
};

const keyFile = join(tmpdir(), `airgift-dkim-${process.pid}.pem`);

before(async () => {
  mail = await startMailServer();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  server = await startTestServer({
    env: {
      SMTP_URL: mail.url,
      SMTP_FROM: 'Gift desk <gifts@example.com>',
      SMTP_DKIM_DOMAIN: 'example.com',
      SMTP_DKIM_SELECTOR: 'airgift',
      SMTP_DKIM_KEY_FILE: keyFile,
    },
  });
  await sellFromStock(server);
});

after(async () => {
  await server?.close();
  await mail?.close();
  rmSync(keyFile, { force: true });
});

describe('the recipient e-mail', () => {
  test('one e-mail: from the account, text and HTML, DKIM-signed, the link and no code', async () => {
    const { id, card } = await liveOrder({ recipientEmail: 'grace@example.org' });
    await server.runtime.services.worker.runDue();
    const mails = mailsTo('grace@example.org');
    assert.equal(mails.length, 1);
    const { mail: m, raw } = mails[0];
    assert.equal(m.from?.value[0].address, 'gifts@example.com');
    assert.equal(m.from?.value[0].name, 'Test account', "the account's name as the sender's name");
    assert.equal(m.subject, 'Ada <Lovelace> sent you an Amazon gift card');
    assert.match(m.messageId ?? '', /^<airgift\.\d+\.[0-9a-z]+@example\.com>$/);
    assert.match(raw, /^DKIM-Signature: .*d=example\.com/m);
    assert.match(raw, /s=airgift/);
    assert.ok(m.text?.includes('25.00 USD'), m.text);
    assert.ok(String(m.html).includes('Ada &lt;Lovelace&gt;'), 'the HTML part escapes the sender name');
    assert.ok(!(m.html as string).includes('Ada <Lovelace>'));
    for (const part of [m.text ?? '', m.html as string, raw]) {
      assert.ok(!part.includes(card.cardNumber), 'no code in the e-mail');
      assert.ok(!part.includes(card.pinCode), 'no PIN in the e-mail');
    }
    const [message] = await messagesOf(id);
    assert.equal(message.status, 'sent');
    assert.equal(message.attempts, 1);
    // the link and the page
    const token = linkIn(m.text ?? '');
    assert.equal(linkIn(m.html as string), token);
    const first = await page(token);
    const second = await page(token);
    for (const view of [first, second]) {
      assert.equal(view.status, 200);
      assert.ok(!view.text.includes(card.cardNumber), 'GET never shows the code');
      assert.ok(view.text.includes('Amazon'));
      const csp = String(view.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.equal(view.headers['cache-control'], 'no-store');
    }
    const reveals = () =>
      withMessagingTables(server.db.kysely)
        .selectFrom('redeem_reveals')
        .selectAll()
        .where('transaction_id', '=', id)
        .execute();
    assert.equal((await reveals()).length, 0, 'looking records no reveal');
    const withoutForm = await page(token, 'POST', {});
    assert.equal(withoutForm.status, 403);
    assert.ok(!withoutForm.text.includes(card.cardNumber));
    const revealed = await page(token, 'POST', { form: formTokenIn(first.text) });
    assert.equal(revealed.status, 200, revealed.text);
    assert.ok(revealed.text.includes(card.cardNumber), 'POST reveals the code');
    assert.ok(revealed.text.includes(card.pinCode));
    const recorded = await reveals();
    assert.equal(recorded.length, 1);
    assert.ok(recorded[0].ip);
    // a token one character off opens nothing
    const wrong = await page(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    assert.equal(wrong.status, 404);
    assert.ok(!wrong.text.includes('Amazon'));
  });

  test('e-mails rendered together (one statement for their orders, one for their links): each its own', async () => {
    const orders = [];
    for (const name of ['Ann', 'Bob', 'Cy', 'Di', 'Ed', 'Flo']) {
      orders.push({
        name,
        ...(await liveOrder({ senderName: name, recipientEmail: `${name}@batch.example.org` })),
      });
    }
    // Cy's link revoked before the run: only Cy's message fails, whatever its place in the batch
    const cy = orders[2];
    await withMessagingTables(server.db.kysely)
      .updateTable('redeem_links')
      .set({ revoked_at: new Date() })
      .where('transaction_id', '=', cy.id)
      .execute();
    await server.runtime.services.worker.runDue();
    assert.equal(mailsTo('Cy@batch.example.org').length, 0);
    assert.equal((await messagesOf(cy.id))[0].status, 'failed');
    for (const order of orders.filter((o) => o !== cy)) {
      const mails = mailsTo(`${order.name}@batch.example.org`);
      assert.equal(mails.length, 1, order.name);
      const text = mails[0].mail.text ?? '';
      assert.equal(mails[0].mail.subject, `${order.name} sent you an Amazon gift card`);
      const token = linkIn(text);
      const view = await page(token);
      const revealed = await page(token, 'POST', { form: formTokenIn(view.text) });
      assert.ok(
        revealed.text.includes(order.card.cardNumber),
        `${order.name}'s link opens ${order.name}'s card`,
      );
      assert.equal((await messagesOf(order.id))[0].status, 'sent');
    }
  });

  test('a mail server refusing (451) for a while, then accepting: delivered once, same Message-ID', async () => {
    mail.refuse(451);
    const { id } = await liveOrder({ recipientEmail: 'hopper@example.org' });
    await server.runtime.services.worker.runDue();
    let [message] = await messagesOf(id);
    assert.equal(message.status, 'queued');
    assert.equal(message.attempts, 1);
    assert.match(message.last_error ?? '', /451/);
    assert.ok(
      message.next_attempt_at && message.next_attempt_at > server.clock.now(),
      'retried later, not at once',
    );
    await server.runtime.services.worker.runDue();
    assert.equal((await messagesOf(id))[0].attempts, 1, 'not due again before its backoff');
    server.clock.advance(60_000);
    await server.runtime.services.worker.runDue();
    [message] = await messagesOf(id);
    assert.equal(message.attempts, 2);
    assert.equal(mailsTo('hopper@example.org').length, 0);
    mail.refuse(null);
    server.clock.advance(10 * 60_000);
    await server.runtime.services.worker.runDue();
    server.clock.advance(3600_000);
    await server.runtime.services.worker.runDue();
    [message] = await messagesOf(id);
    assert.equal(message.status, 'sent');
    assert.equal(message.attempts, 3);
    assert.equal(mailsTo('hopper@example.org').length, 1, 'delivered once');
  });

  test('a permanent refusal (550) fails the message at once', async () => {
    mail.refuse(550);
    try {
      const { id } = await liveOrder({ recipientEmail: 'nobody@example.org' });
      await server.runtime.services.worker.runDue();
      const [message] = await messagesOf(id);
      assert.equal(message.status, 'failed');
      assert.equal(message.attempts, 1);
      assert.match(message.last_error ?? '', /550/);
      assert.equal(message.next_attempt_at, null);
    } finally {
      mail.refuse(null);
    }
  });

  test('temporary refusals for a day fail the message', async () => {
    mail.refuse(451);
    try {
      const { id } = await liveOrder({ recipientEmail: 'later@example.org' });
      for (let i = 0; i < 40; i++) {
        await server.runtime.services.worker.runDue();
        server.clock.advance(3600_000);
      }
      const [message] = await messagesOf(id);
      assert.equal(message.status, 'failed');
      assert.match(message.last_error ?? '', /temporary refusals for a day/);
      // hourly runs against a backoff of up to 1 h 12 min (jitter): 13 to 25 attempts in the day
      assert.ok(message.attempts >= 10 && message.attempts <= 40, `${message.attempts} attempts`);
      assert.ok(
        message.updated_at.getTime() - message.send_after.getTime() >= 24 * 3600_000,
        'failed only after a day',
      );
    } finally {
      mail.refuse(null);
    }
  });

  test('a sandbox order is captured, never sent; the bouncing sandbox address fails', async () => {
    const client = await server.caller('giftcards');
    const order = (recipientEmail: string) =>
      client.post('/orders', {
        productId: 1840,
        quantity: 1,
        unitPrice: 25,
        senderName: 'Ada',
        recipientEmail,
      });
    const captured = await order('sandbox-recipient@example.org');
    const bounced = await order('someone@bounce.airgift.test');
    assert.equal(captured.status, 200, captured.text);
    await server.runtime.services.worker.runDue();
    assert.equal(mailsTo('sandbox-recipient@example.org').length, 0);
    assert.equal((await messagesOf(captured.body.transactionId))[0].status, 'captured');
    const [b] = await messagesOf(bounced.body.transactionId);
    assert.equal(b.status, 'failed');
    assert.match(b.last_error ?? '', /bounces/);
  });
});

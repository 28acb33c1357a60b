import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { smsDriverFor } from '../../src/modules/messaging/transports/drivers.ts';
import { smppTransport } from '../../src/modules/messaging/transports/smpp-transport.ts';
import { smsParts } from '../../src/modules/messaging/transports/sms-parts.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { type Smsc, startSmsc } from './smsc.ts';
import { messagesOfOrder, sellFromStock, stockOrder } from './stock-orders.ts';

// Issue 26: text messages over SMPP 3.4 to a real SMSC (the smpp package's server): submit_sm's
// destination and text, long texts concatenated with UDH, a refusal by command_status (permanent:
// failed and the smsFee refunded; throttled: retried), and the redeem page's one-time code path.
const PHONE = { countryCode: 'US', phoneNumber: '+12025550123' };
let server: TestServer;
let smsc: Smsc;
let mail: MailServer;

async function liveOrder(body: Record<string, unknown>) {
  const client = await server.caller('giftcards', 'live', { fund: 10_000 });
  return { client, ...(await stockOrder(server, client, body)) };
}

const messagesOf = (id: number) => messagesOfOrder(server, id);
const refundsOf = (id: number) =>
  server.db.kysely
    .selectFrom('ledger_entries')
    .selectAll()
    .where('transaction_id', '=', id)
    .where('kind', '=', 'REFUND')
    .execute();
const page = (path: string, form?: Record<string, string>) =>
  server.http.call(form ? 'POST' : 'GET', path, {
    headers: {
      accept: 'text/html',
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    rawBody: form ? new URLSearchParams(form).toString() : undefined,
  });
const formTokenIn = (html: string) => /name="form" value="([^"]+)"/.exec(html)?.[1] ?? '';

before(async () => {
  smsc = await startSmsc();
  mail = await startMailServer();
  server = await startTestServer({ env: { SMS_URL: smsc.url, SMS_FROM: 'GiftDesk', SMTP_URL: mail.url } });
  await sellFromStock(server);
});

after(async () => {
  await server?.close();
  await smsc?.close();
  await mail?.close();
});

describe('SMS parts', () => {
  test('GSM text: 160 alone, 153 per concatenated part with a 6-octet UDH; UCS-2: 70 / 67', () => {
    assert.deepEqual(smsParts('x'.repeat(160)).parts, [{ text: 'x'.repeat(160) }]);
    assert.equal(smsParts('€'.repeat(80)).parts.length, 1, '80 € are 160 septets: one message');
    const long = smsParts('y'.repeat(400), 7);
    assert.equal(long.dataCoding, 0);
    assert.deepEqual(
      long.parts.map((p) => p.text.length),
      [153, 153, 94],
    );
    assert.deepEqual([...(long.parts[1].udh as Buffer)], [0x05, 0x00, 0x03, 7, 3, 2]);
    assert.deepEqual(
      smsParts('€'.repeat(81)).parts.map((p) => p.text.length),
      [76, 5],
      '€ takes two septets',
    );
    const greek = smsParts('Привет '.repeat(12));
    assert.equal(greek.dataCoding, 8);
    assert.deepEqual(
      greek.parts.map((p) => p.text.length),
      [67, 17],
    );
  });
});

describe('SMS over SMPP', () => {
  test('a long text goes as concatenated submit_sm parts the SMSC can put back together', async () => {
    const sms = smppTransport({ url: smsc.url, from: 'GiftDesk' });
    try {
      const text = `Hello ${'z'.repeat(300)} end`;
      const before = smsc.submitted.length;
      const outcome = await sms.send({ channel: 'sms', to: '+447700900123', text });
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      const parts = smsc.submitted.slice(before);
      assert.equal(parts.length, 3);
      for (const [i, p] of parts.entries()) {
        assert.equal(p.destination, '447700900123');
        assert.equal(p.source, 'GiftDesk');
        assert.deepEqual([...(p.udh as Buffer)].slice(0, 2), [0x00, 0x03]);
        assert.deepEqual([...(p.udh as Buffer)].slice(3), [3, i + 1]);
      }
      assert.equal(parts.map((p) => p.text).join(''), text);
    } finally {
      await sms.close();
    }
  });

  test('enquire_link keeps the session alive; it comes back after the SMSC drops it', async () => {
    const sms = smppTransport({ url: smsc.url, from: 'GiftDesk', maxBackoffMs: 200, enquireLinkMs: 100 });
    try {
      const links = smsc.enquireLinks;
      assert.equal((await sms.send({ channel: 'sms', to: '+447700900124', text: 'one' })).ok, true);
      await new Promise((r) => setTimeout(r, 350));
      assert.ok(smsc.enquireLinks >= links + 2, 'enquire_link sent while idle');
      const binds = smsc.binds;
      smsc.dropSessions();
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(smsc.binds > binds, 'bound again by itself');
      assert.equal((await sms.send({ channel: 'sms', to: '+447700900124', text: 'two' })).ok, true);
    } finally {
      await sms.close();
    }
  });

  test('SMS_URL binds as a transceiver, or a transmitter with ?bind=transmitter', async () => {
    const before = smsc.bindCommands.length;
    const sms = smsDriverFor(`${smsc.url}?bind=transmitter`, { from: 'GiftDesk' });
    try {
      assert.equal((await sms.send({ channel: 'sms', to: '+447700900125', text: 'tx' })).ok, true);
    } finally {
      await sms.close();
    }
    assert.deepEqual(smsc.bindCommands.slice(before), ['bind_transmitter']);
    assert.ok(smsc.bindCommands.slice(0, before).every((c) => c === 'bind_transceiver'));
  });

  test('a phone-only order texts the link', async () => {
    const { id, card } = await liveOrder({ recipientPhoneDetails: PHONE });
    const before = smsc.submitted.length;
    await server.runtime.services.worker.runDue();
    const sent = smsc.submitted.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].destination, '12025550123');
    assert.equal(sent[0].source, 'GiftDesk');
    assert.match(
      sent[0].text,
      /^Ada sent you a 25\.00 USD Amazon gift card: https:\/\/localhost\/r\/[A-Za-z0-9_-]{32}$/,
    );
    assert.ok(!sent[0].text.includes(card.cardNumber));
    const [message] = await messagesOf(id);
    assert.equal(message.status, 'sent');
    assert.match(message.provider_id ?? '', /^smsc-\d+$/);
  });

  test('an invalid number (0x0000000B) fails the SMS and gives the smsFee back with a REFUND naming why', async () => {
    smsc.refuse(0x0b);
    try {
      const { id, smsFee } = await liveOrder({ recipientPhoneDetails: PHONE });
      assert.ok(smsFee > 0);
      await server.runtime.services.worker.runDue();
      const [message] = await messagesOf(id);
      assert.equal(message.status, 'failed');
      assert.match(message.last_error ?? '', /command_status 0x0000000b/);
      const refunds = await refundsOf(id);
      assert.equal(refunds.length, 1);
      assert.equal(Number(refunds[0].amount), smsFee);
      assert.match(refunds[0].reason ?? '', /smsFee refunded: SMS to the number ending 23 failed/);
      assert.deepEqual(await server.admin.audit(), [], 'balances still equal their entries');
    } finally {
      smsc.refuse(null);
    }
  });

  test('delivery receipts: DELIVRD makes the SMS delivered; UNDELIV fails it and gives the smsFee back, once', async () => {
    const delivered = await liveOrder({ recipientPhoneDetails: PHONE });
    await server.runtime.services.worker.runDue();
    const [sent] = await messagesOf(delivered.id);
    assert.equal(sent.status, 'sent');
    assert.equal(
      await smsc.receipt(sent.provider_id ?? '', 'ENROUTE'),
      0,
      'a state not final is acknowledged',
    );
    assert.equal((await messagesOf(delivered.id))[0].status, 'sent', 'and changes nothing');
    assert.equal(await smsc.receipt(sent.provider_id ?? '', 'DELIVRD'), 0);
    assert.equal((await messagesOf(delivered.id))[0].status, 'delivered');
    const deliveries = await delivered.client.get(`/orders/transactions/${delivered.id}/deliveries`);
    assert.equal(deliveries.status, 200, deliveries.text);
    assert.equal(JSON.stringify(deliveries.body).includes('"delivered"'), true, deliveries.text);

    // an older SMSC: the receipt only in the text, with an error code
    const undelivered = await liveOrder({ recipientPhoneDetails: PHONE });
    await server.runtime.services.worker.runDue();
    const [lost] = await messagesOf(undelivered.id);
    assert.equal(await smsc.receipt(lost.provider_id ?? '', 'UNDELIV', { textOnly: true }), 0);
    const [failed] = await messagesOf(undelivered.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.last_error, 'not delivered: the SMSC reported UNDELIV err:001');
    // the SMSC repeating the receipt (it did not hear our answer) refunds nothing more
    assert.equal(await smsc.receipt(lost.provider_id ?? '', 'UNDELIV'), 0);
    const refunds = await refundsOf(undelivered.id);
    assert.equal(refunds.length, 1);
    assert.equal(Number(refunds[0].amount), undelivered.smsFee);
    assert.match(
      refunds[0].reason ?? '',
      /SMS to the number ending 23 failed: not delivered: the SMSC reported UNDELIV/,
    );
    assert.equal((await refundsOf(delivered.id)).length, 0);
    assert.deepEqual(await server.admin.audit(), [], 'balances and orders still agree with the ledger');
  });

  test('throttling (0x00000058) is retried, then sent', async () => {
    smsc.refuse(0x58);
    const { id } = await liveOrder({ recipientPhoneDetails: PHONE });
    await server.runtime.services.worker.runDue();
    assert.equal((await messagesOf(id))[0].status, 'queued');
    smsc.refuse(null);
    server.clock.advance(60_000);
    await server.runtime.services.worker.runDue();
    const [message] = await messagesOf(id);
    assert.equal(message.status, 'sent');
    assert.equal(message.attempts, 2);
    assert.equal((await refundsOf(id)).length, 0);
  });

  test('e-mail and phone: the page reveals only with the one-time code texted to the phone', async () => {
    const { id, card } = await liveOrder({ recipientEmail: 'otp@example.org', recipientPhoneDetails: PHONE });
    await server.runtime.services.worker.runDue();
    const email = mail.received.find((r) => r.envelopeTo.includes('otp@example.org'));
    assert.ok(email, 'the e-mail went');
    assert.match(email.mail.text ?? '', /number ending 23/);
    const token = /\/r\/([A-Za-z0-9_-]{32})/.exec(email.mail.text ?? '')?.[1] as string;
    const path = `/r/${token}`;
    const first = await page(path);
    assert.equal(first.status, 200);
    assert.match(first.text, /number ending 23/);
    // revealing without a code: refused, nothing shown
    const early = await page(path, { form: formTokenIn(first.text) });
    assert.ok(!early.text.includes(card.cardNumber));
    const before = smsc.submitted.length;
    const asked = await page(`${path}/code`, { form: formTokenIn(first.text) });
    assert.equal(asked.status, 200, asked.text);
    assert.match(asked.text, /autocomplete="one-time-code"/);
    await server.runtime.services.worker.runDue();
    const sms = smsc.submitted.slice(before);
    assert.equal(sms.length, 1);
    const code = /^(\d{6}) is your code/.exec(sms[0].text)?.[1] as string;
    assert.ok(code, sms[0].text);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await page(path, { form: formTokenIn(asked.text), code: wrong });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /4 tries left/);
    assert.ok(!bad.text.includes(card.cardNumber));
    const good = await page(path, { form: formTokenIn(bad.text), code });
    assert.equal(good.status, 200, good.text);
    assert.ok(good.text.includes(card.cardNumber));
    // the code is used up
    const again = await page(path, { form: formTokenIn(good.text), code });
    assert.ok(!again.text.includes(card.cardNumber));
    const kinds = (await messagesOf(id)).map((m) => [m.kind, m.status]);
    assert.deepEqual(kinds, [
      ['giftcard.recipient', 'sent'],
      ['giftcard.code_sms', 'sent'],
    ]);
  });

  test('5 wrong codes lock the code; codes are limited per order', async () => {
    const { id, card } = await liveOrder({
      recipientEmail: 'lock@example.org',
      recipientPhoneDetails: PHONE,
    });
    await server.runtime.services.worker.runDue();
    const email = mail.received.find((r) => r.envelopeTo.includes('lock@example.org'));
    const path = `/r/${/\/r\/([A-Za-z0-9_-]{32})/.exec(email?.mail.text ?? '')?.[1]}`;
    let html = (await page(path)).text;
    html = (await page(`${path}/code`, { form: formTokenIn(html) })).text;
    await server.runtime.services.worker.runDue();
    const code = /^(\d{6})/.exec(smsc.submitted.at(-1)?.text ?? '')?.[1] as string;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) html = (await page(path, { form: formTokenIn(html), code: wrong })).text;
    const locked = await page(path, { form: formTokenIn(html), code });
    assert.ok(!locked.text.includes(card.cardNumber), 'the right code after 5 wrong ones opens nothing');
    assert.match(locked.text, /cannot be used any more|Text me a/);
    // four more codes may be sent within the hour, not a fifth
    for (let i = 0; i < 4; i++) {
      const r = await page(`${path}/code`, { form: formTokenIn(html) });
      assert.equal(r.status, 200, r.text);
      html = r.text;
    }
    const limited = await page(`${path}/code`, { form: formTokenIn(html) });
    assert.equal(limited.status, 429);
    const codes = (await messagesOf(id)).filter((m) => m.kind === 'giftcard.code_sms');
    assert.equal(codes.length, 5);
  });
});

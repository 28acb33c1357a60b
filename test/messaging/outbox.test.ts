import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// Issue 26: with no SMTP_URL / SMS_URL (the `npm start` default) messages are rendered and kept as
// "not sent", the deliveries say so, and the console's Outbox shows them as a person would see them,
// their link masked; a phone-only order's smsFee comes back, as for any SMS that could not go.
const AMAZON_US = 1840;
let server: TestServer;

before(async () => {
  server = await startTestServer();
  assert.equal(
    (await server.admin.call('PUT', `/products/${AMAZON_US}/provider`, { provider: 'stock' })).status,
    200,
  );
  const csv = `cardNumber,pinCode,faceValue\n5500000000000001,111111,25\n5500000000000002,222222,25\n`;
  assert.equal((await server.admin.call('POST', `/products/${AMAZON_US}/stock`, { csv })).status, 200);
});
after(() => server?.close());

test('no SMTP or SMS service: kept as not sent, shown in the console Outbox with the link masked', async () => {
  const client = await server.caller('giftcards', 'live', { fund: 1000 });
  const order = (body: object) =>
    client.post('/orders', { productId: AMAZON_US, quantity: 1, unitPrice: 25, senderName: 'Ada', ...body });
  const byEmail = await order({ recipientEmail: 'kept@example.org' });
  const byPhone = await order({ recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' } });
  assert.equal(byEmail.status, 200, byEmail.text);
  await server.runtime.services.worker.runDue();
  const rows = await withMessagingTables(server.db.kysely)
    .selectFrom('messages')
    .selectAll()
    .orderBy('id')
    .execute();
  const email = rows.find((m) => m.transaction_id === byEmail.body.transactionId);
  const sms = rows.find((m) => m.transaction_id === byPhone.body.transactionId);
  assert.equal(email?.status, 'unsent');
  assert.equal(email?.last_error, 'not sent: no SMTP server configured');
  assert.equal(sms?.status, 'unsent');
  const refund = await server.db.kysely
    .selectFrom('ledger_entries')
    .selectAll()
    .where('transaction_id', '=', byPhone.body.transactionId)
    .where('kind', '=', 'REFUND')
    .executeTakeFirst();
  assert.equal(
    Number(refund?.amount),
    byPhone.body.smsFee,
    'the smsFee of an SMS that could not go comes back',
  );

  const operator = await server.runtime.services.web.users.createWithPassword(
    'operator',
    'ops@example.com',
    null,
  );
  const signIn = await server.http.post('/console/api/sign-in', {
    email: 'ops@example.com',
    password: operator.password,
  });
  const cookie = String(signIn.headers['set-cookie'] ?? '').split(';')[0];
  const outbox = await server.http.get('/console/api/outbox', { headers: { cookie } });
  assert.equal(outbox.status, 200, outbox.text);
  const shown = outbox.body.items.find((m: { messageId: number }) => m.messageId === email?.id);
  assert.equal(shown.statusText, 'not sent: no SMTP server configured');
  assert.equal(shown.subject, 'Ada sent you an Amazon gift card');
  assert.match(shown.text, /Open your gift card: https:\/\/localhost\/r\/••••••/);
  assert.match(shown.html, /<!DOCTYPE html>/);
  assert.doesNotMatch(JSON.stringify(outbox.body), /\/r\/[A-Za-z0-9_-]{32}/, 'no live link in the Outbox');
  const shownSms = outbox.body.items.find((m: { messageId: number }) => m.messageId === sms?.id);
  assert.equal(shownSms.statusText, 'not sent: no SMS service configured');
  assert.match(shownSms.text, /^Ada sent you a 25\.00 USD Amazon gift card: https:\/\/localhost\/r\/••••••$/);
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import { messagesTo } from '../harness/messages.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { type Smsc, startSmsc } from './smsc.ts';
import { matchSnapshot } from './snapshot.ts';

// Issue 26, the platform's own e-mail: invitations to the dashboard and the console e-mailed (the
// link still answered to the inviter), a password reset by a one-time link (30 minutes), and the
// low balance warning to the account's users; snapshots of every message in the one layout.
let server: TestServer;
let mail: MailServer;
let smsc: Smsc;
const FIXED = new Date('2026-12-01T09:00:00Z');

before(async () => {
  mail = await startMailServer();
  smsc = await startSmsc();
  server = await startTestServer({
    env: { SMTP_URL: mail.url, SMS_URL: smsc.url, SMTP_FROM: 'airgift <no-reply@example.com>' },
  });
  server.clock.set(FIXED);
});
after(async () => {
  await server?.close();
  await mail?.close();
  await smsc?.close();
});

const mailsTo = (address: string) => mail.received.filter((r) => r.envelopeTo.includes(address));
const run = () => server.runtime.services.worker.runDue();

describe('the platform e-mail', () => {
  test('an invitation is e-mailed with the link the inviter is shown; it works once', async () => {
    const account = await server.admin.createAccount();
    const invited = await server.admin.call('POST', `/accounts/${account.accountId}/users`, {
      email: 'new@example.com',
    });
    assert.equal(invited.status, 200, invited.text);
    const operator = await server.admin.call('POST', '/operators', { email: 'ops@example.com' });
    assert.equal(operator.status, 200, operator.text);
    await run();
    const [m] = mailsTo('new@example.com');
    assert.ok(m, 'the invitation went');
    assert.equal(m.mail.subject, 'You are invited to the airgift dashboard');
    assert.ok(m.mail.text?.includes(invited.body.link), 'the same link as shown to the inviter');
    assert.ok(String(m.mail.html).includes(invited.body.link));
    const [o] = mailsTo('ops@example.com');
    assert.equal(o?.mail.subject, 'You are invited to the airgift operator console');
    assert.ok(o.mail.text?.includes(operator.body.link));
    const token = invited.body.link.split('/').pop();
    const accepted = await server.http.post('/dashboard/api/welcome', { token, password: 'twelve chars!' });
    assert.equal(accepted.status, 200, accepted.text);
  });

  test('a password reset e-mails a one-time link for 30 minutes; unknown addresses and a 4th request get nothing', async () => {
    const account = await server.admin.createAccount();
    await server.runtime.services.web.users.createWithPassword(
      'customer',
      'forgot@example.com',
      account.accountId,
    );
    const ask = (email: string) => server.http.post('/dashboard/api/password-reset', { email });
    assert.deepEqual(
      (await ask('nobody@example.com')).body,
      { ok: true },
      'the same answer for an unknown address',
    );
    assert.equal((await ask('forgot@example.com')).status, 200);
    await run();
    assert.equal(mailsTo('nobody@example.com').length, 0);
    const [m] = mailsTo('forgot@example.com');
    assert.equal(m?.mail.subject, 'Reset your airgift dashboard password');
    const link = /https:\/\/localhost\/dashboard\/#\/reset\/([\w-]+)/.exec(m.mail.text ?? '');
    assert.ok(link, m.mail.text);
    const set = await server.http.post('/dashboard/api/welcome', {
      token: link[1],
      password: 'a new passphrase',
    });
    assert.equal(set.status, 200, set.text);
    const again = await server.http.post('/dashboard/api/welcome', {
      token: link[1],
      password: 'another one!!',
    });
    assert.equal(again.status, 404, 'once only');
    const signIn = await server.http.post('/dashboard/api/sign-in', {
      email: 'forgot@example.com',
      password: 'a new passphrase',
    });
    assert.equal(signIn.status, 200);
    // an expired link
    assert.equal((await ask('forgot@example.com')).status, 200);
    await run();
    const late = /#\/reset\/([\w-]+)/.exec(mailsTo('forgot@example.com')[1]?.mail.text ?? '')?.[1];
    server.clock.advance(31 * 60_000);
    assert.equal(
      (await server.http.post('/dashboard/api/welcome', { token: late, password: 'too late here' })).status,
      404,
    );
    // three an hour
    server.clock.set(FIXED);
    await ask('forgot@example.com');
    await ask('forgot@example.com');
    await run();
    const sent = await messagesTo(server, 'forgot@example.com', 'web.password_reset');
    assert.equal(sent.length, 3, 'at most 3 reset e-mails an hour');
  });

  test("balance.low e-mails the account's dashboard users once per crossing", async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: 100 });
    const { accountId } = client.account;
    await server.runtime.services.web.users.createWithPassword('customer', 'owner@example.com', accountId);
    await server.runtime.services.web.users.invite(
      'customer',
      'pending@example.com',
      accountId,
      'https://localhost/dashboard',
    );
    const threshold = await server.admin.call('PUT', `/accounts/${accountId}/balance-threshold`, {
      environment: 'sandbox',
      threshold: 50,
    });
    assert.equal(threshold.status, 200, threshold.text);
    const order = () =>
      client.post('/orders', { productId: 11, quantity: 1, unitPrice: 25, senderName: 'Ada' });
    assert.equal((await order()).status, 200);
    await run();
    assert.equal(mailsTo('owner@example.com').length, 0, 'still above the threshold');
    assert.equal((await order()).status, 200);
    assert.equal((await order()).status, 200);
    const rows = await withMessagingTables(server.db.kysely)
      .selectFrom('messages')
      .selectAll()
      .where('kind', '=', 'balance.low')
      .execute();
    assert.deepEqual(
      rows.map((r) => r.recipient),
      ['owner@example.com'],
      'one e-mail, to the user with a password; not again below the threshold',
    );
    await run();
    assert.equal(rows[0].environment, 'sandbox');
    const [captured] = await withMessagingTables(server.db.kysely)
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', rows[0].id)
      .execute();
    assert.equal(
      captured.status,
      'captured',
      'a sandbox balance is warned about in the sandbox way: captured',
    );
  });

  test('snapshots of every message in the one layout', async () => {
    // a live order with both recipient fields, its one-time code, and one of each platform message
    await server.admin.call('PUT', '/products/1840/provider', { provider: 'stock' });
    await server.admin.call('POST', '/products/1840/stock', {
      csv: 'cardNumber,pinCode,faceValue\n9500000000000001,111111,25\n9500000000000002,111112,25\n',
    });
    const client = await server.caller('giftcards', 'live', { fund: 100 });
    const body = { productId: 1840, quantity: 1, unitPrice: 25, senderName: 'Ada <Lovelace>' };
    await client.post('/orders', {
      ...body,
      recipientEmail: 'snap@example.org',
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
    });
    await client.post('/orders', {
      ...body,
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
    });
    const db = withMessagingTables(server.db.kysely);
    const all = await db.selectFrom('messages').selectAll().orderBy('id', 'desc').execute();
    const byKind = new Map<string, (typeof all)[number]>();
    for (const m of all) if (!byKind.has(m.kind)) byKind.set(m.kind, m);
    const link = await db
      .selectFrom('redeem_links')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const [code] = await server.runtime.services.messaging.repository.insert(
      [
        {
          kind: 'giftcard.code_sms',
          channel: 'sms',
          recipient: '+12025550123',
          account_id: client.account.accountId,
          environment: 'live',
          transaction_id: byKind.get('giftcard.recipient')?.transaction_id,
          link_id: link.id,
          data: JSON.stringify({ codeId: 1 }),
        },
      ],
      FIXED,
    );
    byKind.set('giftcard.code_sms', code);
    const stable = (text: string) =>
      text
        .replace(/\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?/g, 'YYYY-MM-DD$1')
        .replace(/Test account/g, 'ACCOUNT')
        .replace(/(owner|new|ops|forgot)@example\.com/g, 'USER@example.com');
    for (const kind of [
      'giftcard.recipient',
      'giftcard.link_sms',
      'giftcard.code_sms',
      'web.invitation',
      'web.password_reset',
      'balance.low',
    ]) {
      const message = byKind.get(kind);
      assert.ok(message, `a ${kind} message`);
      const rendered = await server.runtime.services.messaging.sender.preview(message);
      assert.ok(rendered, kind);
      if ('html' in rendered) {
        matchSnapshot(`${kind}.txt`, `Subject: ${stable(rendered.subject)}\n\n${stable(rendered.text)}\n`);
        matchSnapshot(`${kind}.html`, stable(rendered.html));
        assert.doesNotMatch(rendered.html, /<script|\son\w+=/i, 'no script in the HTML');
      } else {
        matchSnapshot(`${kind}.txt`, `${stable(rendered.text)}\n`);
      }
    }
  });
});

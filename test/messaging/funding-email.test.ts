import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { type MailServer, startMailServer } from './mail-server.ts';
import { matchSnapshot } from './snapshot.ts';

// Issue 28, funding by bank transfer: each change of a transfer's status e-mails the account's users
// and the console's operators through the outbox, over a real SMTP server; snapshots of the messages.
let server: TestServer;
let mail: MailServer;
const FIXED = new Date('2026-12-01T09:00:00Z');

before(async () => {
  mail = await startMailServer();
  server = await startTestServer({
    env: { SMTP_URL: mail.url, SMTP_FROM: 'airgift <no-reply@example.com>' },
  });
  server.clock.set(FIXED);
});
after(async () => {
  await server?.close();
  await mail?.close();
});

const subjectsTo = (address: string) =>
  mail.received.filter((r) => r.envelopeTo.includes(address)).map((r) => r.mail.subject);

describe('the e-mails of a bank transfer', () => {
  test('announced, confirmed and rejected reach both sides, each once, in the one layout', async () => {
    const { funding, web, worker, messaging } = server.runtime.services;
    const account = await server.admin.createAccount({ name: 'Acme Gifts' });
    await web.users.createWithPassword('customer', 'finance@acme.example', account.accountId);
    await web.users.createWithPassword('operator', 'money@airgift.example', null);
    // a developer of the account may not move money: not told
    await web.users.createWithPassword('customer', 'dev@acme.example', account.accountId);
    await sql`UPDATE web_users SET role = 'developer' WHERE email = 'dev@acme.example'`.execute(
      server.db.kysely,
    );
    // invited, no password yet: not told
    await server.admin.call('POST', `/accounts/${account.accountId}/users`, {
      email: 'pending@acme.example',
    });
    await funding.bankDetails.set('USD', {
      accountHolder: 'Airgift Operations Ltd',
      accountNumber: 'GB33BUKB20201555555555',
      bankName: 'Barclays',
    });
    const a = await funding.announce(account.accountId, null, {
      amount: '1200',
      transferDate: '2026-11-30',
      payerReference: 'PO-77',
    });
    const b = await funding.announce(account.accountId, null, { amount: '15.5', transferDate: '2026-12-01' });
    await funding.confirm(a.transferId, 'money@airgift.example');
    await funding.reject(b.transferId, 'money@airgift.example', 'No payment with this reference arrived');
    await worker.runDue();
    assert.deepEqual(subjectsTo('finance@acme.example').sort(), [
      'Transfer of 1200.00 USD announced',
      'Transfer of 1200.00 USD confirmed',
      'Transfer of 15.50 USD announced',
      'Transfer of 15.50 USD rejected',
    ]);
    assert.deepEqual(subjectsTo('money@airgift.example').sort(), [
      'Transfer of 1200.00 USD confirmed',
      'Transfer of 15.50 USD rejected',
      'Transfer to confirm: 1200.00 USD from Acme Gifts',
      'Transfer to confirm: 15.50 USD from Acme Gifts',
    ]);
    assert.deepEqual(
      subjectsTo('pending@acme.example'),
      ['You are invited to the airgift dashboard'],
      'only users who set a password hear of transfers',
    );
    assert.deepEqual(subjectsTo('dev@acme.example'), [], 'only roles that may move money');

    const { rows } = await sql<{ id: number; data: { status: string; side: string } }>`
      SELECT id, data FROM messages WHERE kind = 'funding.transfer' ORDER BY id`.execute(server.db.kysely);
    const stable = (text: string) =>
      text.replace(/account \d+/g, 'account N').replace(/AG-\d+-\d{2}/g, 'AG-N-CC');
    for (const [status, side] of [
      ['announced', 'operator'],
      ['confirmed', 'customer'],
      ['rejected', 'customer'],
    ]) {
      const row = rows.find((r) => r.data.status === status && r.data.side === side);
      assert.ok(row, `${status} ${side}`);
      const message = await messaging.repository.find(row.id);
      const rendered = await messaging.sender.preview(message as NonNullable<typeof message>);
      assert.ok(rendered && 'html' in rendered);
      const name = `funding.transfer-${status}-${side}`;
      matchSnapshot(`${name}.txt`, `Subject: ${stable(rendered.subject)}\n\n${stable(rendered.text)}\n`);
      matchSnapshot(`${name}.html`, stable(rendered.html));
      assert.doesNotMatch(rendered.html, /<script|\son\w+=/i);
    }
  });
});

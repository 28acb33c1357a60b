import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadTls } from '../../src/http/tls.ts';
import { smtpTransport } from '../../src/modules/messaging/transports/smtp-transport.ts';
import { caPem } from '../harness/client.ts';
import { CACHE_DIR } from '../harness/templates.ts';
import { type MailServer, startMailServer } from './mail-server.ts';

// Issue 26: SMTP_URL smtp:// upgrades with STARTTLS when the server offers it, smtps:// speaks TLS
// from the first byte; both check the server's certificate (here the tests' CA, as MESSAGING_CA_FILE).
let starttls: MailServer;
let implicit: MailServer;
let ca: string;

before(async () => {
  const tls = await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
  ca = caPem();
  starttls = await startMailServer({ starttls: true, key: tls.key, cert: tls.cert });
  implicit = await startMailServer({ secure: true, key: tls.key, cert: tls.cert });
});
after(async () => {
  await starttls?.close();
  await implicit?.close();
});

const message = (to: string) => ({
  channel: 'email' as const,
  to,
  fromName: null,
  subject: 'TLS',
  text: 'over TLS',
  html: '<p>over TLS</p>',
  messageId: `<tls.${to}@example.com>`,
});

test('smtp:// with STARTTLS offered, and smtps://: the session is encrypted and the certificate checked', async () => {
  for (const [server, scheme] of [
    [starttls, 'smtp'],
    [implicit, 'smtps'],
  ] as const) {
    const smtp = smtpTransport({
      url: `${scheme}://localhost:${server.port}`,
      from: 'Gifts <gifts@example.com>',
      poolSize: 1,
      ca,
    });
    try {
      const outcome = await smtp.send(message(`${scheme}@example.org`));
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      const [got] = server.received.filter((r) => r.envelopeTo.includes(`${scheme}@example.org`));
      assert.equal(got?.secure, true, `${scheme}: encrypted`);
    } finally {
      await smtp.close();
    }
  }
  // a certificate the client does not trust: refused, tried again later (the operator's to fix)
  const untrusting = smtpTransport({
    url: `smtps://localhost:${implicit.port}`,
    from: 'gifts@example.com',
    poolSize: 1,
    timeoutMs: 5000,
  });
  try {
    const refused = await untrusting.send(message('untrusted@example.org'));
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.permanent, false);
  } finally {
    await untrusting.close();
  }
});

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import { queryDatabase, type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';
import { startMailServer } from '../messaging/mail-server.ts';

// Issue 26: the outbox survives SIGKILL. (1) A server with messages queued and not yet sent is
// killed; the next server sends each exactly once. (2) A server killed while its messages are on the
// wire (the mail server holding its replies): the next takes them over when their leases pass; each
// arrives, and a message the mail server did take before the kill comes again under the same
// Message-ID, so it is recognisable.
const postgres = await postgresForTests();
const servers: ServerProcess[] = [];
after(async () => {
  for (const s of [...servers].reverse()) await s.cleanup();
});

async function until<T>(
  what: string,
  find: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const found = await find();
    if (found) return found;
    await sleep(100);
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

test('SIGKILL with messages queued or in flight: each delivered, none lost, none doubled unrecognisably', {
  skip: !postgres && 'PostgreSQL not reachable',
  timeout: 120_000,
}, async (t) => {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const env = { SMTP_URL: mail.url, WORKER_LEASE_SECONDS: '2', LOG_LEVEL: 'error' };
  // the first server's worker never gets to the outbox within the test
  const first = await startServerProcess({ ...env, MESSAGE_POLL_MS: '3600000' });
  servers.push(first);
  const N = 20;
  const codes = Array.from(
    { length: N + 5 },
    (_, i) => `66${Date.now()}${String(i).padStart(3, '0')},123456,25`,
  );
  assert.equal(
    (
      await first.admin.call('POST', '/products/1840/stock', {
        csv: `cardNumber,pinCode,faceValue\n${codes.join('\n')}\n`,
      })
    ).status,
    200,
  );
  assert.equal((await first.admin.call('PUT', '/products/1840/provider', { provider: 'stock' })).status, 200);
  const account = await first.admin.call('POST', '/accounts', {
    name: 'Crash gifts',
    currency: 'USD',
    country: 'US',
    environment: 'live',
    fund: 5000,
  });
  const token = (
    await first.http.post('/auth/oauth/token', {
      client_id: account.body.clientId,
      client_secret: account.body.clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsLive,
    })
  ).body.access_token;
  const order = (server: ServerProcess, to: string) =>
    server.http.post(
      '/giftcards/orders',
      { productId: 1840, quantity: 1, unitPrice: 25, senderName: 'Ada', recipientEmail: to },
      { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
    );
  for (let i = 0; i < N; i++) assert.equal((await order(first, `queued-${i}@example.org`)).status, 200);
  const queued = await queryDatabase<{ n: number }>(
    first.database,
    "SELECT count(*)::int AS n FROM messages WHERE status = 'queued'",
  );
  assert.equal(queued[0].n, N, 'all queued, none sent');
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startServerProcess({ ...env, MESSAGE_POLL_MS: '200' }, first);
  servers.push(second);
  await until('the queued messages sent', () => mail.received.length >= N || undefined);
  await sleep(1000);
  for (let i = 0; i < N; i++) {
    const got = mail.received.filter((r) => r.envelopeTo.includes(`queued-${i}@example.org`));
    assert.equal(got.length, 1, `queued-${i} delivered exactly once`);
  }

  // (2) in flight: the mail server holds its replies; the server is killed while it waits for them
  // (the hold only has to outlast the kill: the test kills as soon as one message is on the wire)
  mail.hold(4000);
  for (let i = 0; i < 5; i++) assert.equal((await order(second, `flight-${i}@example.org`)).status, 200);
  await until('a message on the wire', () => mail.arrived > N || undefined, 10_000);
  second.child.kill('SIGKILL');
  await second.exited;
  mail.hold(0);
  const onTheWire = mail.arrived;
  await until(
    'the held replies dropped',
    () => mail.received.length + mail.unacknowledged.length >= onTheWire || undefined,
    15_000,
  );
  const third = await startServerProcess({ ...env, MESSAGE_POLL_MS: '200' }, first);
  servers.push(third);
  await until('the in-flight messages taken over and sent', async () => {
    const rows = await queryDatabase<{ n: number }>(
      first.database,
      "SELECT count(*)::int AS n FROM messages WHERE status = 'sent'",
    );
    return rows[0].n === N + 5 || undefined;
  });
  for (let i = 0; i < 5; i++) {
    const to = `flight-${i}@example.org`;
    const delivered = mail.received.filter((r) => r.envelopeTo.includes(to));
    // once, or twice when the mail server's reply beat the kill but the outcome's UPDATE did not
    assert.ok(delivered.length >= 1 && delivered.length <= 2, `${to} delivered (${delivered.length})`);
    const seen = [...delivered, ...mail.unacknowledged.filter((r) => r.envelopeTo.includes(to))];
    assert.equal(
      new Set(seen.map((r) => r.mail.messageId)).size,
      1,
      `${to}: every copy has the same Message-ID`,
    );
  }
  assert.ok(mail.unacknowledged.length >= 1, 'at least one message was on the wire at the kill');
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { logRedaction, maskSecrets, redactUrl } from '../../src/lib/log-redaction.ts';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';
import { type MailServer, startMailServer } from '../messaging/mail-server.ts';
import { type Smsc, startSmsc } from '../messaging/smsc.ts';

/**
 * Secrets at rest: the real server (its own process, PostgreSQL, LOG_LEVEL=trace) creates
 * credentials, sells gift card codes and PIN top-ups, and is sent requests carrying secrets in the
 * wrong places; then the database is dumped with `pg_dump` and the dump and the server's whole log are
 * searched for every secret, in plain text. Client secrets are stored hashed, redeem codes and PIN
 * vouchers encrypted (CARD_CODES_KEY), tokens not at all; logs redact them; answers never echo them.
 *
 * To cover a new kind of secret (an upstream's API key, a webhook's signing secret), configure it in
 * `before` and push it onto `secrets` with its name: nothing else changes.
 */
const run = promisify(execFile);
let server: ServerProcess | null = null;
/** [what, value]: each must appear in neither the dump nor the logs. */
const secrets: [string, string][] = [];
/** In the dump only: the first start prints the bootstrap sandbox credential by design (README "Quick start"). */
const dumpOnly: [string, string][] = [];
const answers: string[] = [];

let mail: MailServer | null = null;
let smsc: Smsc | null = null;

before(async () => {
  if (!(await postgresForTests())) return;
  mail = await startMailServer();
  smsc = await startSmsc();
  server = await startServerProcess({ LOG_LEVEL: 'trace', SMTP_URL: mail.url, SMS_URL: smsc.url });
  const http = server.http;
  dumpOnly.push(['bootstrap client secret', server.credentials.clientSecret]);
  secrets.push(['admin key', ADMIN_KEY]);

  const account = await server.admin.createAccount({ name: 'Secrets', fund: 5000 });
  secrets.push(['client secret', account.clientSecret]);
  const second = await server.admin.call('POST', `/accounts/${account.accountId}/credentials`, {
    environment: 'sandbox',
  });
  assert.equal(second.status, 200, second.text);
  secrets.push(['second client secret', second.body.clientSecret]);

  const token = async (audience: string) => {
    const a = await http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_type: 'client_credentials',
      audience,
    });
    assert.equal(a.status, 200, a.text);
    secrets.push([`access token for ${audience}`, a.body.access_token]);
    return a.body.access_token as string;
  };
  const giftcards = {
    authorization: `Bearer ${await token(AUDIENCES.giftcardsSandbox)}`,
    accept: 'application/json',
  };
  const topups = {
    authorization: `Bearer ${await token(AUDIENCES.topupsSandbox)}`,
    accept: 'application/json',
  };

  const order = await http.post(
    '/giftcards-sandbox/orders',
    { productId: 11, quantity: 3, unitPrice: 10, senderName: 'Ada' },
    { headers: giftcards },
  );
  assert.equal(order.status, 200, order.text);
  const cards = await http.get(`/giftcards-sandbox/orders/transactions/${order.body.transactionId}/cards`, {
    headers: giftcards,
  });
  assert.equal(cards.status, 200, cards.text);
  assert.equal(cards.body.length, 3);
  for (const card of cards.body) {
    secrets.push(['card number', String(card.cardNumber)], ['card PIN', String(card.pinCode)]);
  }

  const operator = await http.get('/topups-sandbox/operators/1004', { headers: topups });
  assert.equal(operator.body.pin, true, 'operator 1004 sells PIN vouchers');
  const topup = await http.post(
    '/topups-sandbox/topups',
    {
      operatorId: 1004,
      amount: operator.body.fixedAmounts[0],
      recipientPhone: { countryCode: 'NG', number: '08031112233' },
    },
    { headers: topups },
  );
  assert.equal(topup.status, 200, topup.text);
  assert.ok(topup.body.pinDetail?.code, 'a PIN voucher');
  secrets.push(
    ['top-up PIN code', topup.body.pinDetail.code],
    ['top-up PIN serial', topup.body.pinDetail.serial],
  );
  const report = await http.get(`/topups-sandbox/topups/reports/transactions/${topup.body.transactionId}`, {
    headers: topups,
  });
  assert.deepEqual(report.body.pinDetail, topup.body.pinDetail, 'the voucher reads back whole');

  // An upstream's client secret (sealed at rest) and a webhook endpoint's signing secret (shown once).
  const upstreamSecret = `upstream-secret-${randomUUID()}`;
  const upstream = await server.admin.call('PUT', '/upstreams/giftcards', {
    url: 'https://127.0.0.1:9/giftcards',
    authUrl: 'https://127.0.0.1:9/auth',
    clientId: 'reseller',
    clientSecret: upstreamSecret,
  });
  assert.equal(upstream.status, 200, upstream.text);
  assert.ok(!upstream.text.includes(upstreamSecret), 'the upstream secret is never answered back');
  secrets.push(['upstream client secret', upstreamSecret]);
  const shown = await server.admin.call('GET', '/upstreams');
  answers.push(shown.text);
  const webhook = await server.admin.call('POST', '/webhooks', {
    accountId: account.accountId,
    environment: 'sandbox',
    url: 'https://hooks.example.com/airgift',
    events: ['*'],
  });
  assert.equal(webhook.status, 200, webhook.text);
  assert.match(webhook.body.secret, /^whsec_/);
  secrets.push(['webhook signing secret', webhook.body.secret]);
  const listed = await server.admin.call('GET', `/webhooks?accountId=${account.accountId}`);
  answers.push(listed.text);

  // A gift card's recipient (issue 26): the redeem link's token, the one-time SMS code, the code revealed.
  const live = await server.admin.createAccount({ name: 'Recipients', environment: 'live', fund: 500 });
  secrets.push(['live client secret', live.clientSecret]);
  const stockCode = `77${Date.now()}`;
  assert.equal(
    (
      await server.admin.call('POST', '/products/1840/stock', {
        csv: `cardNumber,pinCode,faceValue\n${stockCode},424242,25\n`,
      })
    ).status,
    200,
  );
  assert.equal(
    (await server.admin.call('PUT', '/products/1840/provider', { provider: 'stock' })).status,
    200,
  );
  secrets.push(['stock card number', stockCode]);
  const liveToken = await http.post('/auth/oauth/token', {
    client_id: live.clientId,
    client_secret: live.clientSecret,
    grant_type: 'client_credentials',
    audience: AUDIENCES.giftcardsLive,
  });
  secrets.push(['live access token', liveToken.body.access_token]);
  const gifted = await http.post(
    '/giftcards/orders',
    {
      productId: 1840,
      quantity: 1,
      unitPrice: 25,
      senderName: 'Ada',
      recipientEmail: 'secret-recipient@example.org',
      recipientPhoneDetails: { countryCode: 'US', phoneNumber: '+12025550123' },
    },
    { headers: { authorization: `Bearer ${liveToken.body.access_token}`, accept: 'application/json' } },
  );
  assert.equal(gifted.status, 200, gifted.text);
  const email = await until(() =>
    mail?.received.find((r) => r.envelopeTo.includes('secret-recipient@example.org')),
  );
  const linkToken = /\/r\/([A-Za-z0-9_-]{32})/.exec(email.mail.text ?? '')?.[1] as string;
  assert.ok(linkToken, 'the e-mail carries the link');
  secrets.push(['redeem link token', linkToken]);
  const form = (html: string) => /name="form" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const pagePost = (path: string, body: Record<string, string>) =>
    http.call('POST', path, {
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams(body).toString(),
    });
  const shownPage = await http.call('GET', `/r/${linkToken}`, { headers: { accept: 'text/html' } });
  const sent = smsc?.submitted.length ?? 0;
  await pagePost(`/r/${linkToken}/code`, { form: form(shownPage.text) });
  const sms = await until(() => smsc?.submitted[sent]);
  const oneTimeCode = /^(\d{6})/.exec(sms.text)?.[1] as string;
  secrets.push(['one-time SMS code', oneTimeCode]);
  const revealed = await pagePost(`/r/${linkToken}`, { form: form(shownPage.text), code: oneTimeCode });
  assert.ok(revealed.text.includes(stockCode), 'the page revealed the code');

  // Secrets where they do not belong: every answer is kept and searched too.
  const wrong = [
    await http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: `${account.clientSecret}x`,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    }),
    await http.post('/auth/oauth/token', {
      client_id: account.clientSecret,
      grant_type: 'client_credentials',
    }),
    await http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_type: 'client_credentials',
      audience: `https://evil.example/${account.clientSecret}`,
    }),
    await http.get('/giftcards-sandbox/accounts/balance', {
      headers: { ...giftcards, authorization: `Bearer ${account.clientSecret}` },
    }),
    await http.get('/giftcards-sandbox/accounts/balance', {
      headers: { ...topups, accept: 'application/json' },
    }),
    await http.post(
      '/giftcards-sandbox/orders',
      {
        productId: 11,
        quantity: 0,
        unitPrice: 10,
        senderName: account.clientSecret,
        client_secret: 'x',
      },
      { headers: giftcards },
    ),
    await http.get('/admin/accounts', { headers: { 'x-admin-key': account.clientSecret } }),
    await server.admin.call('GET', `/credentials/${account.clientSecret}`),
  ];
  // Secrets in a URL's query (issue 29: the admin key sent as ?key= was logged with the request line).
  const password = `a-password-in-a-url-${randomUUID()}`;
  secrets.push(['password in a query', password]);
  const inUrls = [
    await http.get(`/admin/accounts?key=${ADMIN_KEY}`),
    await http.get(`/admin/accounts?limit=5&X-Admin-Key=${encodeURIComponent(ADMIN_KEY)}#x`),
    await http.get(`/admin/nowhere/${ADMIN_KEY}`),
    await server.admin.call('GET', `/webhooks?accountId=${account.accountId}&secret=${webhook.body.secret}`),
    await http.get(`/giftcards-sandbox/products?client_secret=${account.clientSecret}`, {
      headers: giftcards,
    }),
    await http.get(`/giftcards-sandbox/products?access_token=${giftcards.authorization.slice(7)}`),
    await http.post(`/dashboard/api/sign-in?password=${password}`, { email: 'a@example.com', password }),
  ];
  for (const a of wrong) {
    assert.ok(a.status >= 400, `${a.status} ${a.text}`);
    answers.push(a.text);
  }
  // (Their answers are not searched: a 404 names the path its sender sent.)
  assert.deepEqual(
    inUrls.map((a) => a.status),
    [401, 401, 404, 200, 200, 401, 401],
  );
  // Log lines are written asynchronously: give the last ones time to arrive.
  await sleep(500);
});
after(async () => {
  await server?.cleanup();
  await mail?.close();
  await smsc?.close();
});

/** What `find` finds within 15 s (the server's worker sends within a second or two). */
async function until<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const found = find();
    if (found) return found;
    await sleep(100);
  }
  throw new Error('not within 15 s');
}

test('pg_dump of the database and the server log hold no secret in plain text; no error answer echoes one', async (t) => {
  if (!server) return t.skip('PostgreSQL is not reachable');
  const { stdout: dump } = await run('pg_dump', ['--no-owner', '--data-only', server.databaseUrl], {
    maxBuffer: 512 * 1024 * 1024,
  });
  assert.match(dump, /COPY public\.giftcard_cards/, 'the dump holds the cards table');
  assert.match(dump, /COPY public\.topup_transactions/, 'and the top-ups');
  const log = server.output();
  assert.ok(log.split('\n').length > 20, 'the trace log was collected');
  assert.ok(secrets.length >= 13, `secrets searched: ${secrets.length}`);
  const found: string[] = [];
  for (const [what, value] of secrets) {
    assert.ok(value.length >= 6, `${what} is long enough to search for`);
    if (dump.includes(value)) found.push(`${what} in the dump`);
    if (log.includes(value)) {
      const at = log.indexOf(value);
      found.push(`${what} in the log: ${log.slice(Math.max(0, at - 300), at + 100)}`);
    }
    for (const answer of answers)
      if (answer.includes(value)) found.push(`${what} echoed in an answer: ${answer.slice(0, 200)}`);
  }
  for (const [what, value] of dumpOnly) if (dump.includes(value)) found.push(`${what} in the dump`);
  assert.deepEqual(found, []);
  t.diagnostic(
    `${secrets.length + dumpOnly.length} secrets; dump ${dump.length} bytes; log ${log.length} bytes`,
  );
});

test('a secret in a URL query leaves no trace in the log: the request line is logged with it censored', async (t) => {
  if (!server) return t.skip('PostgreSQL is not reachable');
  const log = server.output();
  assert.match(log, /"url":"\/admin\/accounts\?key=\[redacted\]"/);
  assert.match(log, /"url":"\/admin\/accounts\?limit=5&X-Admin-Key=\[redacted\]"/);
  assert.match(log, /"url":"\/admin\/nowhere\/\[redacted\]"/);
  assert.match(log, /&secret=\[redacted\]"/);
  assert.match(log, /"url":"\/dashboard\/api\/sign-in\?password=\[redacted\]"/);
  for (const [what, value] of secrets) assert.ok(!log.includes(value), `${what} in the log`);
});

test('log redaction: headers, client secrets and tokens logged with a request or an error are censored', async () => {
  let out = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  // The logger main.ts configures: Fastify's pino with the same redaction and line masker.
  const adminKey = 'SECRET-ADMIN-KEY-0123456789';
  const app = Fastify({ logger: { level: 'trace', stream: sink, ...logRedaction([adminKey]) } });
  const log = app.log;
  log.info(
    {
      req: {
        headers: { authorization: 'Bearer SECRET-A', 'x-admin-key': 'SECRET-B' },
        body: { client_secret: 'SECRET-C' },
      },
    },
    'r',
  );
  log.error(
    {
      err: { message: 'x' },
      body: { client_secret: 'SECRET-D' },
      client_secret: 'SECRET-E',
      access_token: 'SECRET-F',
    },
    'e',
  );
  log.warn(
    { credential: { clientSecret: 'SECRET-G' }, card: { cardNumber: 'SECRET-H', pinCode: 'SECRET-I' } },
    'w',
  );
  // Every line, whatever wrote it: the admin key anywhere, secret-named query parameters, whsec_ secrets.
  log.warn(`No resource at /admin/credentials/${adminKey}`);
  log.info({ url: '/giftcards/products?api_key=SECRET-J&page=2&Password=SECRET-K' }, 'u');
  log.info('signing secret whsec_SECRETLLLLLLLLLLLLLLLLLLLL');
  assert.doesNotMatch(out, /SECRET/);
  assert.match(out, /api_key=\[redacted\]&page=2&Password=\[redacted\]/);
  assert.match(out, /\[redacted\]/);
  await app.close();
  // Secrets pasted into a URL or a field are masked where they would be echoed or logged.
  assert.equal(maskSecrets('/admin/credentials/sk_test_Zn9g3yxHwT4AlD3Q'), '/admin/credentials/[redacted]');
  assert.equal(
    maskSecrets('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ190ZXN0In0.c2ln end'),
    'token [redacted] end',
  );
  assert.equal(maskSecrets('/products/1840'), '/products/1840');
  assert.equal(
    redactUrl('/admin/accounts?key=abc&limit=5&monkey=x'),
    '/admin/accounts?key=[redacted]&limit=5&monkey=[redacted]',
  );
  assert.equal(redactUrl('/products?countryCode=US&page=2'), '/products?countryCode=US&page=2');
});

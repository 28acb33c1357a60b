import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { type Answer, AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import {
  cutDatabase,
  queryDatabase,
  restoreDatabase,
  type ServerProcess,
  startServerProcess,
} from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';

// The real server (src/main.ts in its own process) on PostgreSQL, whose database goes away for two
// seconds (connections terminated, new ones refused) while 60 gift card orders and 60 top-ups are
// being placed by clients that retry with the same customIdentifier, as the README tells them to.
const pg = await postgresForTests();
const OUTAGE_MS = 2000;
const CLIENTS = 60;

let server: ServerProcess;
before(async () => {
  if (!pg) return;
  server = await startServerProcess({
    // Deferred outcomes fall due during the outage, so the workers must survive it to finish them.
    TOPUP_SANDBOX_PROCESSING_SECONDS: '1',
    SANDBOX_PROCESSING_SECONDS: '1',
    FULFILMENT_POLL_MS: '200',
    TOPUP_WORKER_INTERVAL_MS: '200',
    // A job claimed just before the database went away cannot be released (the release fails too):
    // its lease runs out instead, after this long (30 s by default, longer than the wait below).
    WORKER_LEASE_SECONDS: '2',
  });
});
after(() => server?.cleanup());

const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
const TOPUPS = { accept: 'application/com.reloadly.topups-v1+json' };

function assertUnavailable(a: Answer, code: string, what: string) {
  assert.equal(a.status, 503, `${what}: ${a.status} ${a.text}`);
  assert.equal(a.body.errorCode, code, what);
  for (const field of ['timeStamp', 'message', 'infoLink', 'path', 'errorCode', 'details']) {
    assert.ok(field in a.body, `${what}: envelope without ${field}`);
  }
  assert.ok(Number(a.headers['retry-after']) > 0, `${what}: no Retry-After`);
  assert.ok(a.headers['x-request-id'], what);
}

test('an outage during 60 orders and 60 top-ups: 503s with Retry-After, each recorded once, audit empty, /ready 503 then 200, /health 200 throughout', {
  skip: !pg && 'PostgreSQL not reachable',
  timeout: 90_000,
}, async (t) => {
  const http = server.http;
  const giftToken = await server.token(AUDIENCES.giftcardsSandbox);
  const topupToken = await server.token(AUDIENCES.topupsSandbox);
  const order = (body: unknown) =>
    http.post('/giftcards-sandbox/orders', body, { token: giftToken, headers: GIFTCARDS });
  const topup = (body: unknown) =>
    http.post('/topups-sandbox/topups', body, { token: topupToken, headers: TOPUPS });
  assert.equal((await http.get('/ready')).status, 200);
  // The probes also answer plain HTTP (a kubelet probing a TLS=off pod); nothing else does.
  const plain = async (path: string) =>
    (await request(server.url.replace('https:', 'http:') + path)).statusCode;
  assert.deepEqual(
    [await plain('/health'), await plain('/ready'), await plain('/giftcards-sandbox/products')],
    [200, 200, 400],
  );

  // Deferred outcomes that fall due while the database is away.
  const deferredTopup = await topup({
    operatorId: 1001,
    amount: 10,
    customIdentifier: 'deferred-topup',
    recipientPhone: { countryCode: 'NG', number: '08031299990' },
  });
  assert.equal(deferredTopup.body.status, 'PROCESSING', deferredTopup.text);
  const deferredOrder = await order({
    productId: 21,
    quantity: 1,
    unitPrice: 10,
    senderName: 'Ada',
    customIdentifier: 'deferred-order',
  });
  assert.equal(deferredOrder.body.status, 'PROCESSING', deferredOrder.text);

  // The probes, every 100 ms, from before the outage to after it.
  // `sentAt`: when the probe left; `at`: when its answers came back.
  const probes: { sentAt: number; at: number; health: number; ready: number }[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const sentAt = performance.now();
      const [health, ready] = await Promise.all([http.get('/health'), http.get('/ready')]);
      probes.push({ sentAt, at: performance.now(), health: health.status, ready: ready.status });
      await sleep(100);
    }
  })();

  const unavailable: { what: string; answer: Answer }[] = [];
  /** One client: sends until the purchase is known to be recorded, retrying a 503 as told. */
  const client = async (what: string, send: () => Promise<Answer>, alreadyRecorded: string[]) => {
    await sleep(Math.random() * 1500);
    for (let attempt = 0; attempt < 100; attempt++) {
      const a = await send();
      if (a.status === 200) return 'accepted';
      if (a.status === 400 && alreadyRecorded.includes(a.body.errorCode)) return 'recorded before';
      unavailable.push({ what, answer: a });
      assertUnavailable(a, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT', what);
      // Retry-After says 2 s; the test waits less so that it stays short, with jitter.
      await sleep(200 + Math.random() * 200);
    }
    throw new Error(`${what} never got through`);
  };
  const clients = [
    ...Array.from({ length: CLIENTS }, (_, i) =>
      client(
        `order ${i}`,
        () =>
          order({
            productId: 11,
            quantity: 1,
            unitPrice: 10,
            senderName: 'Ada',
            customIdentifier: `outage-order-${i}`,
          }),
        ['CUSTOM_IDENTIFIER_ALREADY_USED'],
      ),
    ),
    ...Array.from({ length: CLIENTS }, (_, i) =>
      client(
        `top-up ${i}`,
        () =>
          topup({
            operatorId: 1001,
            amount: 10,
            customIdentifier: `outage-topup-${i}`,
            recipientPhone: { countryCode: 'NG', number: `0803${5000000 + i}` },
          }),
        // A retry of a top-up that was recorded meets the recent-recharge check first.
        ['CUSTOM_IDENTIFIER_ALREADY_USED', 'PHONE_RECENTLY_RECHARGED'],
      ),
    ),
  ];

  await sleep(300);
  // The outage starts somewhere between these two moments (the admin statements take a while under
  // load): probes before the first must be ready, probes after the second must not.
  const cutAt = performance.now();
  await cutDatabase(server.database);
  const cutDoneAt = performance.now();
  await sleep(OUTAGE_MS / 2);
  // Other calls during the outage: a read, and the token service in its OAuth form.
  const balance = await http.get('/giftcards-sandbox/accounts/balance', {
    token: giftToken,
    headers: GIFTCARDS,
  });
  assertUnavailable(balance, 'SERVICE_UNAVAILABLE', 'balance');
  const token = await http.post('/auth/oauth/token', {
    client_id: server.credentials.clientId,
    client_secret: server.credentials.clientSecret,
    grant_type: 'client_credentials',
    audience: AUDIENCES.topupsSandbox,
  });
  assert.equal(token.status, 503, token.text);
  assert.equal(token.body.error, 'temporarily_unavailable');
  assert.ok(Number(token.headers['retry-after']) > 0);
  await sleep(OUTAGE_MS / 2);
  const restoringAt = performance.now();
  await restoreDatabase(server.database);
  const restoredAt = performance.now();

  const outcomes = await Promise.all(clients);
  // The deferred outcomes are finished by the workers once the database is back.
  for (let i = 0; i < 50; i++) {
    const [t] = await queryDatabase<{ status: string }>(
      server.database,
      `SELECT status FROM topup_transactions WHERE custom_identifier = 'deferred-topup'`,
    );
    const [g] = await queryDatabase<{ status: string }>(
      server.database,
      `SELECT status FROM giftcard_transactions WHERE custom_identifier = 'deferred-order'`,
    );
    if (t.status === 'SUCCESSFUL' && g.status === 'SUCCESSFUL') break;
    assert.ok(i < 49, `deferred outcomes not finished: top-up ${t.status}, order ${g.status}`);
    await sleep(200);
  }
  await sleep(500);
  probing = false;
  await prober;

  // Every purchase is recorded exactly once, with exactly one debit.
  for (const [table, prefix] of [
    ['giftcard_transactions', 'outage-order-'],
    ['topup_transactions', 'outage-topup-'],
  ]) {
    const rows = await queryDatabase<{ custom_identifier: string; n: number }>(
      server.database,
      `SELECT custom_identifier, count(*)::int AS n FROM ${table}
        WHERE custom_identifier LIKE $1 GROUP BY custom_identifier`,
      [`${prefix}%`],
    );
    assert.equal(rows.length, CLIENTS, `${table}: ${rows.length} of ${CLIENTS} recorded`);
    assert.ok(
      rows.every((r) => r.n === 1),
      `${table}: recorded twice: ${rows.filter((r) => r.n > 1).map((r) => r.custom_identifier)}`,
    );
  }
  const [entries] = await queryDatabase<{ debits: number; transactions: number }>(
    server.database,
    `SELECT (SELECT count(*)::int FROM ledger_entries WHERE kind = 'ORDER_DEBIT') AS debits,
            (SELECT count(*)::int FROM giftcard_transactions) + (SELECT count(*)::int FROM topup_transactions) AS transactions`,
  );
  assert.equal(entries.debits, entries.transactions, 'one debit per transaction, no more, no less');
  const audit = await server.admin.call('GET', '/ledger/audit');
  assert.equal(audit.status, 200);
  assert.deepEqual(audit.body.discrepancies, []);

  // The outage was met: some purchases were refused 503, and some were accepted only after it.
  assert.ok(unavailable.length >= 10, `only ${unavailable.length} answers met the outage`);
  assert.ok(outcomes.includes('accepted'));

  // /health answered 200 throughout; /ready was 200, then 503, then 200 again.
  assert.ok(
    probes.every((p) => p.health === 200),
    'liveness failed during the outage',
  );
  const before = probes.filter((p) => p.at < cutAt);
  const during = probes.filter((p) => p.sentAt > cutDoneAt + 200 && p.at < restoringAt);
  assert.ok(before.length > 0 && before.every((p) => p.ready === 200), 'not ready before the outage');
  assert.ok(during.length > 0 && during.every((p) => p.ready === 503), 'ready during the outage');
  const back = probes.find((p) => p.sentAt > restoredAt && p.ready === 200);
  assert.ok(back, 'never ready again');
  assert.ok(
    probes.filter((p) => p.at > back.at).every((p) => p.ready === 200),
    'ready flapped after the outage',
  );
  const recoveryMs = back.at - restoredAt;
  assert.ok(recoveryMs < 5000, `ready again only after ${recoveryMs} ms`);

  // One warning when the outage started, one when it ended; no stack, no error per request.
  const logs = server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  const warnings = logs.filter((l) => l.level === 40).map((l) => l.msg);
  assert.equal(warnings.filter((m) => m.startsWith('database unavailable')).length, 1, String(warnings));
  assert.equal(warnings.filter((m) => m.startsWith('database available again')).length, 1, String(warnings));
  assert.deepEqual(
    logs.filter((l) => l.level >= 50),
    [],
    'errors logged during the outage',
  );
  t.diagnostic(
    `outage ${OUTAGE_MS} ms: ${unavailable.length} purchase answers were 503; /ready 200 again ${Math.round(recoveryMs)} ms after the database came back`,
  );
});

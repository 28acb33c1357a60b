import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { AUDIENCES, type TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { consoleSession, dashboardSession, type WebSession } from '../harness/web-session.ts';

/**
 * The API request log of an account (issue 28, docs/audit-and-request-log.md): every product-API
 * request of a known caller, the fast lane's answers and the token endpoint's (once the secret is
 * proven) included; the bodies of failed requests with secrets masked and never a code, a PIN, a
 * secret or a token; written off the request path; filtered and paged on the dashboard and in the
 * console; removed by the worker after REQUEST_LOG_DAYS.
 */
const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };

describe('the API request log', () => {
  let server: TestServer;
  let account: TestAccount;
  let customer: WebSession;
  let token: string;
  const requests = (query: string) => customer.get(`/api/requests?environment=sandbox&${query}`);
  const flush = () => server.runtime.services.requestLog.flush();

  before(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_API_REQUESTS: '0' } });
    account = await server.admin.createAccount({ fund: 1000 });
    customer = await dashboardSession(server, account.accountId, 'dev@example.com');
    token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  });
  after(() => server?.close());

  test('every request of a known caller, failed ones with their masked bodies; never a code, secret or token', async () => {
    const auth = { ...GIFTCARDS, authorization: `Bearer ${token}` };
    // the fast lane answers the second balance read from memory (http/fast-lane.ts): logged all the same
    const lane = () =>
      server.runtime.services.metrics
        .render()
        .then((m) => Number(/airgift_fast_lane_answers_total (\d+)/.exec(m)?.[1]));
    const laneBefore = await lane();
    for (let i = 0; i < 3; i++) {
      const balance = await server.http.get('/giftcards-sandbox/accounts/balance', { headers: auth });
      assert.equal(balance.status, 200);
    }
    assert.ok((await lane()) > laneBefore, 'the fast lane answered some');
    const order = await server.http.post(
      '/giftcards-sandbox/orders',
      { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada' },
      { headers: auth },
    );
    assert.equal(order.status, 200, order.text);
    const cards = await server.http.get(
      `/giftcards-sandbox/orders/transactions/${order.body.transactionId}/cards`,
      {
        headers: auth,
      },
    );
    assert.equal(cards.status, 200);
    const codes = cards.body.flatMap((c: { cardNumber: string; pinCode: string }) => [
      c.cardNumber,
      c.pinCode,
    ]);
    const refused = await server.http.post(
      '/giftcards-sandbox/orders?api_key=abcdef123456',
      {
        productId: 11,
        quantity: 1,
        unitPrice: 'ten',
        senderName: `paste ${account.clientSecret}`,
        cardNumber: '4111',
      },
      { headers: { ...auth, 'x-request-id': 'req-refused-order' } },
    );
    assert.equal(refused.status, 400);
    // no token: nobody to log it for; a wrong secret proves nothing either
    assert.equal(
      (await server.http.get('/giftcards-sandbox/accounts/balance', { headers: GIFTCARDS })).status,
      401,
    );
    const wrongSecret = await server.http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: 'sk_test_wrongwrongwrong',
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsSandbox,
    });
    assert.equal(wrongSecret.status, 401);
    // the secret proven, a refusal is the account's: a sandbox credential for the live base
    const otherBase = await server.http.post('/auth/oauth/token', {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCES.giftcardsLive,
    });
    assert.equal(otherBase.status, 401);
    await server.admin.token(account, AUDIENCES.topupsSandbox);

    // nothing is written by the request itself: the rows come with the next batch
    await flush();
    const page = await requests('size=200');
    assert.equal(page.status, 200, page.text);
    const items = page.body.items as any[];
    const paths = items.map((r) => `${r.method} ${r.path} ${r.status}`);
    assert.equal(
      paths.filter((p) => p === 'GET /giftcards-sandbox/accounts/balance 200').length,
      3,
      paths.join('\n'),
    );
    assert.ok(paths.includes('POST /giftcards-sandbox/orders 200'));
    assert.ok(
      paths.includes(`GET /giftcards-sandbox/orders/transactions/${order.body.transactionId}/cards 200`),
    );
    assert.ok(
      paths.includes('POST /giftcards-sandbox/orders?api_key=[redacted] 400'),
      'the secret query parameter masked',
    );
    assert.equal(
      paths.filter((p) => p.startsWith('POST /auth/oauth/token')).length,
      3,
      'two tokens and the refusal',
    );
    assert.ok(paths.includes('POST /auth/oauth/token 401'));
    assert.ok(!paths.some((p) => p.endsWith('balance 401')), 'no caller, no line');
    for (const r of items) {
      assert.equal(r.environment, 'sandbox');
      assert.equal(r.clientId, account.clientId);
      assert.ok(r.latencyMs >= 0 && r.requestId.length > 0);
      if (r.status < 400)
        assert.deepEqual([r.requestBody, r.responseBody], [null, null], 'no body of a success');
    }
    const failed = items.find((r) => r.requestId === 'req-refused-order');
    assert.equal(failed.product, 'giftcards');
    const sent = JSON.parse(failed.requestBody);
    assert.equal(sent.unitPrice, 'ten');
    assert.equal(sent.cardNumber, '[redacted]');
    assert.equal(sent.senderName, 'paste [redacted]');
    assert.equal(JSON.parse(failed.responseBody).errorCode, 'INVALID_REQUEST');
    const token401 = items.find((r) => r.path === '/auth/oauth/token' && r.status === 401);
    assert.equal(token401.product, 'auth');
    assert.equal(JSON.parse(token401.requestBody).client_secret, '[redacted]');

    // what the table holds: no code, PIN, secret or token anywhere
    const stored = JSON.stringify([
      (await sql`SELECT * FROM api_request_log`.execute(server.db.kysely)).rows,
      (await sql`SELECT * FROM api_request_reads`.execute(server.db.kysely)).rows,
    ]);
    for (const secret of [...codes, account.clientSecret, token, 'abcdef123456', 'sk_test_wrongwrongwrong']) {
      assert.ok(!stored.includes(String(secret)), `the request log holds ${String(secret).slice(0, 12)}…`);
    }
  });

  test('filtered by status, path and time, and paged', async () => {
    const auth = { ...GIFTCARDS, authorization: `Bearer ${token}` };
    for (let i = 0; i < 4; i++) {
      await server.http.get(`/giftcards-sandbox/reports/transactions/99999${i}`, { headers: auth });
    }
    await flush();
    const notFound = await requests('status=404');
    assert.equal(notFound.body.items.length, 4);
    assert.ok(notFound.body.items.every((r: { status: number }) => r.status === 404));
    const failed = (await requests('status=failed&size=200')).body.items;
    assert.ok(failed.length >= 5 && failed.every((r: { status: number }) => r.status >= 400));
    assert.ok(
      (await requests('status=2xx&size=200')).body.items.every((r: { status: number }) => r.status < 300),
    );
    const byPath = (await requests('path=transactions%2F999990')).body.items;
    assert.deepEqual(
      byPath.map((r: { path: string }) => r.path),
      ['/giftcards-sandbox/reports/transactions/999990'],
    );
    const first = await requests('status=404&size=3');
    assert.equal(first.body.items.length, 3);
    assert.equal(first.body.hasMore, true);
    const second = await requests('status=404&size=3&page=2');
    assert.deepEqual([second.body.items.length, second.body.hasMore], [1, false]);
    assert.equal(first.body.items[0].path, '/giftcards-sandbox/reports/transactions/999993', 'newest first');
    const today = server.clock.now().toISOString().slice(0, 10);
    assert.ok((await requests(`startDate=${today}`)).body.items.length > 0);
    assert.equal((await requests('endDate=2020-01-01')).body.items.length, 0);
    assert.equal((await requests('status=teapot')).status, 400);
    assert.equal(
      (await customer.get('/api/requests?environment=live')).body.items.length,
      0,
      'the other environment',
    );
  });

  test("the operator reads an account's request log in the console", async () => {
    const operator = await consoleSession(server, 'support@example.com');
    const read = await operator.get(
      `/api/accounts/${account.accountId}/requests?environment=sandbox&status=404`,
    );
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.items.length, 4);
    assert.equal(read.body.retentionDays, 30);
    assert.equal((await operator.get('/api/accounts/999999/requests?environment=sandbox')).status, 404);
  });

  test('rows older than REQUEST_LOG_DAYS are removed by the worker, in batches; newer ones stay', async () => {
    const db = server.db.kysely;
    // the lines of both stores: rows, and the successful reads' segments (migration 0030)
    const count = async () =>
      Number(
        (
          await sql<{ n: string }>`SELECT (SELECT count(*) FROM api_request_log)
            + (SELECT coalesce(sum(lines), 0) FROM api_request_reads) AS n`.execute(db)
        ).rows[0].n,
      );
    const kept = await count();
    // 12 000 rows of 40 days ago: three batches
    await sql`
      INSERT INTO api_request_log (at, account_id, environment, product, client_id, method, path, status, latency_ms, request_id)
      SELECT now() - interval '40 days', ${account.accountId}, 'sandbox', 'giftcards', 'old', 'GET', '/old', 200, 1, 'req-old-' || i
      FROM generate_series(1, 12000) AS i`.execute(db);
    assert.equal(await count(), kept + 12_000);
    await server.runtime.services.worker.runDue();
    assert.equal(await count(), kept, 'the old rows gone, the rest kept');
    // 29 days on, nothing is old enough; 31 days on, everything is
    server.clock.advance(29 * 86_400_000);
    try {
      await server.runtime.services.worker.runDue();
      assert.equal(await count(), kept);
      server.clock.advance(2 * 86_400_000);
      await server.runtime.services.worker.runDue();
      assert.equal(await count(), 0);
    } finally {
      server.clock.set(new Date());
    }
  });
});

test('REQUEST_LOG_DAYS=0: no request is logged, and the worker has nothing to remove', async () => {
  const off = await startTestServer({ env: { REQUEST_LOG_DAYS: '0' } });
  try {
    const account = await off.admin.createAccount({ fund: 10 });
    const token = await off.admin.token(account, AUDIENCES.giftcardsSandbox);
    for (let i = 0; i < 3; i++) {
      await off.http.get('/giftcards-sandbox/accounts/balance', {
        headers: { ...GIFTCARDS, authorization: `Bearer ${token}` },
      });
    }
    await off.runtime.services.requestLog.flush();
    const rows = await sql<{ n: string }>`
      SELECT (SELECT count(*) FROM api_request_log) + (SELECT count(*) FROM api_request_reads) AS n`.execute(
      off.db.kysely,
    );
    assert.equal(Number(rows.rows[0].n), 0);
    assert.deepEqual(off.runtime.services.requestLog.stats(), { written: 0, dropped: 0, buffered: 0 });
  } finally {
    await off.close();
  }
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// GET /metrics on the admin base: Prometheus text, behind the admin key; requests by route pattern.
let server: TestServer;
const ACCEPT = { accept: 'application/json' };

before(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_API_REQUESTS: '3' } });
});
after(() => server.close());

function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  assert.ok(line, `no series ${series}`);
  return Number(line.split(' ')[1]);
}

test('GET /metrics needs the admin key', async () => {
  const none = await server.http.get('/admin/metrics');
  assert.equal(none.status, 401);
  assert.equal(none.body.errorCode, 'AUTHENTICATION_FAILURE');
});

test('request counts and latency histograms by route pattern, orders by status, queue, outbox, rate-limit rejections', async () => {
  const account = await server.admin.createAccount({ fund: 100 });
  const token = await server.admin.token(account, AUDIENCES.giftcardsSandbox);
  const order = await server.http.post(
    '/giftcards-sandbox/orders',
    // with a recipient: its e-mail waits in the outbox (this test server runs no worker to send it)
    { productId: 11, quantity: 1, unitPrice: 10, senderName: 'Ada', recipientEmail: 'grace@example.com' },
    { token, headers: ACCEPT },
  );
  assert.equal(order.status, 200, order.text);
  for (const id of [order.body.transactionId, 987_654_321]) {
    await server.http.get(`/giftcards-sandbox/orders/transactions/${id}/cards`, { token, headers: ACCEPT });
  }
  // the account limit is 3 per window: this one is refused
  const limited = await server.http.get('/giftcards-sandbox/accounts/balance', { token, headers: ACCEPT });
  assert.equal(limited.status, 429);

  const answer = await server.http.get('/admin/metrics', {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  assert.equal(answer.status, 200);
  assert.match(String(answer.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = answer.text;
  const cards = 'route="/_giftcards/orders/transactions/:transactionId/cards"';
  assert.equal(value(text, `airgift_http_requests_total{method="GET",${cards},status="200"}`), 1);
  assert.equal(value(text, `airgift_http_requests_total{method="GET",${cards},status="404"}`), 1);
  assert.ok(!text.includes('transactions/987654321'), 'raw URLs are never labels');
  assert.equal(value(text, `airgift_http_request_duration_seconds_count{method="GET",${cards}}`), 2);
  assert.equal(
    value(text, `airgift_http_request_duration_seconds_bucket{method="GET",${cards},le="+Inf"}`),
    2,
  );
  assert.equal(value(text, 'airgift_rate_limit_rejections_total{route="/_giftcards/accounts/balance"}'), 1);
  assert.equal(value(text, 'airgift_orders{product="giftcards",status="SUCCESSFUL"}'), 1);
  assert.ok(value(text, 'airgift_jobs_waiting{product="giftcards"}') >= 0);
  assert.equal(value(text, 'airgift_jobs_oldest_due_seconds{product="topups"}'), 0);
  assert.equal(value(text, 'airgift_messages_queued{channel="email"}'), 1);
  assert.equal(value(text, 'airgift_messages_queued{channel="sms"}'), 0);
  assert.ok(value(text, 'airgift_messages_oldest_due_seconds{channel="email"}') >= 0);
  assert.equal(value(text, 'airgift_messages_oldest_due_seconds{channel="sms"}'), 0);
  assert.ok(value(text, 'airgift_process_resident_memory_bytes') > 10_000_000);
  assert.ok(value(text, 'airgift_event_loop_lag_seconds{quantile="0.99"}') >= 0);
  for (const family of [
    'airgift_http_requests_total counter',
    'airgift_http_request_duration_seconds histogram',
  ]) {
    assert.ok(text.includes(`# TYPE ${family}`), family);
  }
});

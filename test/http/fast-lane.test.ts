import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// The fast lane (src/http/fast-lane.ts) answers a kept catalogue or balance answer before Fastify
// runs. It must be invisible: the same bytes and headers as the answer Fastify made, nothing served
// that Fastify would have refused, every request counted against the rate limit and in /metrics,
// and the balance exact after a write. `airgift_fast_lane_answers_total` says which path answered.
const LIMIT = 25;

describe('the fast lane', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_API_REQUESTS: String(LIMIT) } });
  });
  after(() => server?.close());

  const laneAnswers = async () => {
    const metrics = await server.http.get('/admin/metrics', {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    return Number(/^airgift_fast_lane_answers_total (\d+)$/m.exec(metrics.text)?.[1]);
  };
  /** The headers that must be equal on two answers: all but those made per request. */
  const stable = (headers: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(headers).filter(
        ([name]) => !/^(x-request-id|date|ratelimit-remaining|ratelimit-reset)$/.test(name),
      ),
    );

  test('a kept catalogue answer: the same bytes and headers, with its own request id', async () => {
    const client = await server.caller('giftcards');
    // A kept answer is served for a second after it was made, and only while the change announcements
    // are known to arrive: on a loaded machine the second read can come too late. Then the kept
    // answer is let expire (the clock moved on) and the pair is read again, at most five times.
    // The third read names its own request id (it too must come from the lane).
    const reads = async () => {
      server.clock.advance(2_000);
      const lane = await laneAnswers();
      const read = await client.get('/products/1840');
      assert.equal(read.status, 200, read.text);
      const second = await client.get('/products/1840');
      const chosen = await server.http.get('/giftcards-sandbox/products/1840', {
        token: client.token,
        headers: { accept: 'application/json', 'x-request-id': 'trace-7' },
      });
      return { before: lane, first: read, second, chosen };
    };
    let { before, first, second, chosen } = await reads();
    for (let attempt = 2; attempt <= 5 && (await laneAnswers()) !== before + 2; attempt++) {
      ({ before, first, second, chosen } = await reads());
    }
    assert.equal(await laneAnswers(), before + 2, 'the second and third reads came from the lane');
    assert.equal(second.text, first.text);
    assert.deepEqual(stable(second.headers), stable(first.headers));
    assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(second.headers['ratelimit-limit'], String(LIMIT));
    assert.equal(
      Number(second.headers['ratelimit-remaining']),
      Number(first.headers['ratelimit-remaining']) - 1,
    );

    assert.equal(chosen.headers['x-request-id'], 'trace-7');
  });

  test('nothing Fastify would refuse is answered from memory', async () => {
    const client = await server.caller('giftcards');
    assert.equal((await client.get('/products/1840')).status, 200);
    assert.equal((await client.get('/products/1840')).status, 200); // kept, and served by the lane
    const before = await laneAnswers();
    const get = (headers: Record<string, string>, token?: string) =>
      server.http.get('/giftcards-sandbox/products/1840', { token, headers });
    // The spec's answers for each refusal, from the usual path.
    assert.equal((await get({ accept: 'application/json' })).status, 401, 'no token');
    assert.equal(
      (await get({ accept: 'application/json' }, `${client.token}x`)).status,
      401,
      'a forged token',
    );
    // Claims changed under the kept token's own signature (token-cache.ts finds kept tokens by their
    // signature): a later expiry, which only a full check refuses.
    const [header, payload, signature] = client.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const extended = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url');
    assert.equal(
      (await get({ accept: 'application/json' }, `${header}.${extended}.${signature}`)).status,
      401,
      'the signature of a kept token on other claims',
    );
    const other = await server.admin.token(client.account, AUDIENCES.topupsSandbox);
    assert.equal((await get({ accept: 'application/json' }, other)).status, 401, 'a token for another base');
    const refused = await get({ accept: 'application/com.airgift.giftcards-v2+json' }, client.token);
    assert.equal(refused.status, 406);
    assert.equal(refused.body.errorCode, 'MEDIA_TYPE_NOT_ACCEPTABLE');
    assert.equal(await laneAnswers(), before, 'none of these was answered by the lane');
  });

  test('the rate limit counts lane answers, and its 429 comes from the usual path', async () => {
    const client = await server.caller('giftcards');
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const read = await client.get('/products/1840');
      statuses.push(read.status);
      if (read.status === 200) remaining.push(Number(read.headers['ratelimit-remaining']));
      else {
        assert.equal(read.status, 429);
        assert.equal(read.body.errorCode, 'RATE_LIMIT_REACHED');
        assert.ok(Number(read.headers['retry-after']) >= 1);
      }
    }
    assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429, 429, 429]);
    assert.deepEqual(
      remaining,
      Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i),
    );
  });

  test('the kept balance is never older than the last write of this server', async () => {
    const client = await server.caller('giftcards', 'sandbox', { fund: '100.00' });
    const balance = async () => {
      const read = await client.get('/accounts/balance');
      assert.equal(read.status, 200, read.text);
      return read.body.balance as number;
    };
    assert.equal(await balance(), 100);
    const before = await laneAnswers();
    assert.equal(await balance(), 100);
    assert.equal(await balance(), 100);
    assert.ok((await laneAnswers()) > before, 'the balance was answered by the lane');
    let expected = 100;
    for (let i = 1; i <= 3; i++) {
      const order = await client.post('/orders', {
        productId: 11,
        quantity: 1,
        unitPrice: 10,
        senderName: 'L',
      });
      assert.equal(order.status, 200, order.text);
      expected = Number((expected - Number(order.body.amount)).toFixed(4));
      const after = expected;
      assert.equal(await balance(), after, `right after order ${i}`);
      assert.equal(await balance(), after, `read again after order ${i}`);
    }
  });
});

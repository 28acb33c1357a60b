import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { type Answer, AUDIENCES } from '../harness/client.ts';
import { postgresForTests } from '../harness/server.ts';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';
import { sleep } from '../harness/until.ts';

// Rate limits shared through Redis by two real server processes (src/main.ts) on one database, and
// what a server does when its Redis stalls, comes back, and goes away: it keeps answering, counting
// in the process, with one warning each way. Keys live under a prefix unique to this run, deleted after.
const REDIS = 'redis://127.0.0.1:6379';
const GIFTCARDS = { accept: 'application/com.reloadly.giftcards-v1+json' };
const BALANCE = '/giftcards-sandbox/accounts/balance';

const pg = await postgresForTests();
const redisUp = await redisAvailable();
const skip = !pg || !redisUp ? 'needs PostgreSQL and Redis on 127.0.0.1' : false;

async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    if (process.env.CI) throw new Error('Redis is not reachable, and CI must run the Redis suites');
    return false;
  } finally {
    client.disconnect();
  }
}

const prefix = `airgift-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
let redis: Redis;
before(() => {
  if (!skip) redis = new Redis(REDIS, { maxRetriesPerRequest: 1 });
});
after(async () => {
  if (!redis) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const tokenRequest = (server: ServerProcess, credentials = server.credentials) =>
  server.http.post('/auth/oauth/token', {
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    grant_type: 'client_credentials',
    audience: AUDIENCES.giftcardsSandbox,
  });

describe('two servers sharing Redis', { skip, timeout: 120_000 }, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  const env = {
    REDIS_URL: REDIS,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_TOKEN_REQUESTS: '6',
    RATE_LIMIT_API_REQUESTS: '10',
    RATE_LIMIT_WINDOW_SECONDS: '60',
  };
  before(async () => {
    a = await startServerProcess(env);
    b = await startServerProcess(env, a);
    // Warm up: the first checked call loads the OpenAPI documents (the contract checker), whose
    // building blocks a fresh server's event loop long enough to time a Redis answer out.
    for (const server of [a, b]) await server.http.get(BALANCE, { headers: GIFTCARDS });
  });
  after(async () => {
    await b?.cleanup();
    await a?.cleanup();
  });

  test('count one budget per client on the token endpoint and per account on the API', async () => {
    const tokens: Answer[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await tokenRequest(i % 2 === 0 ? a : b));
    assert.deepEqual(
      tokens.map((t) => t.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.deepEqual(
      tokens.map((t) => t.headers['ratelimit-remaining']),
      ['5', '4', '3', '2', '1', '0'],
    );
    for (const server of [a, b]) {
      const refused = await tokenRequest(server);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.error, 'too_many_requests');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
    }

    // A token from one server works on the other (one database, one signing key); both count it.
    const token = tokens[0].body.access_token as string;
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await (i % 2 === 0 ? a : b).http.get(BALANCE, { token, headers: GIFTCARDS }));
    }
    assert.deepEqual(
      answers.map((x) => x.status),
      Array(10).fill(200),
    );
    assert.deepEqual(
      answers.map((x) => x.headers['ratelimit-remaining']),
      ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0'],
    );
    for (const server of [a, b]) {
      const refused = await server.http.get(BALANCE, { token, headers: GIFTCARDS });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.errorCode, 'RATE_LIMIT_REACHED');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    }

    // The counters are Redis's, under this run's prefix, and expire with their window.
    const keys = (await redis.keys(`${prefix}*`)).filter((k) => !k.startsWith(`${prefix}fallback:`)).sort();
    assert.deepEqual(keys, [
      `${prefix}api:sandbox:${a.credentials.accountId}`,
      `${prefix}token:client:${a.credentials.clientId}`,
    ]);
    const ttl = await redis.pttl(keys[0]);
    assert.ok(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`);
    assert.equal(await redis.get(keys[0]), '12');
    assert.doesNotMatch(a.output() + b.output(), /redis unavailable/);
  });
});

/**
 * A TCP stand-in for Redis on a loopback port: `stall` accepts connections and never answers,
 * `forward` passes them to the real Redis, `freeze` keeps the connections but passes no answer back
 * (nor accepts new ones), `close` stops listening (nothing on the port).
 */
async function redisStandIn() {
  let mode: 'stall' | 'forward' = 'stall';
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (mode === 'forward' && !frozen) {
      const upstream = net.connect(6379, '127.0.0.1');
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream);
      upstream.on('data', (chunk) => {
        if (!frozen) socket.write(chunk);
      });
      socket.on('close', () => upstream.destroy());
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
    } else {
      socket.resume(); // read and drop: a server that stalls
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port,
    forward() {
      mode = 'forward';
      dropAll();
    },
    freeze(on: boolean) {
      frozen = on;
    },
    async close() {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a server whose Redis stalls, comes back, goes away', { skip, timeout: 120_000 }, () => {
  let server: ServerProcess;
  let standIn: Awaited<ReturnType<typeof redisStandIn>>;
  before(async () => {
    standIn = await redisStandIn();
    server = await startServerProcess({
      REDIS_URL: `redis://127.0.0.1:${standIn.port}`,
      REDIS_KEY_PREFIX: `${prefix}fallback:`,
      RATE_LIMIT_API_REQUESTS: '5',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
  });
  after(async () => {
    await server?.cleanup();
    await standIn?.close();
  });

  const count = (pattern: RegExp) => (server.output().match(new RegExp(pattern, 'g')) ?? []).length;
  async function waitFor(pattern: RegExp, times: number) {
    const deadline = performance.now() + 15_000;
    while (count(pattern) < times) {
      if (performance.now() > deadline) throw new Error(`no ${pattern} (x${times}) in:\n${server.output()}`);
      await sleep(100);
    }
  }
  /** Sends `n` balance reads, each answered within 1.5 s, and returns their statuses. */
  async function reads(token: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const answer = await server.http.get(BALANCE, { token, headers: GIFTCARDS });
      assert.ok(performance.now() - started < 1500, `a read took ${performance.now() - started} ms`);
      assert.notEqual(answer.status, 500, answer.text);
      statuses.push(answer.status);
    }
    return statuses;
  }

  test('answers and limits in the process, warns once when Redis goes and once when it is back', async () => {
    // Stalled from the start: every request is still answered, counted here.
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    assert.deepEqual(await reads(token, 6), [200, 200, 200, 200, 200, 429]);
    await waitFor(/redis unavailable/, 1);

    // Back: the server reconnects by itself, says so once, and counts in Redis again.
    standIn.forward();
    await waitFor(/redis available again/, 1);
    assert.deepEqual(await reads(token, 1), [200]);
    assert.equal(await redis.get(`${prefix}fallback:api:sandbox:${server.credentials.accountId}`), '1');

    // Stalls while connected: each read waits at most the command timeout (500 ms), then the
    // server counts here (its window from the stall is still running: refused, not a 500) and
    // makes a new connection, which reaches Redis once it answers again.
    standIn.freeze(true);
    assert.deepEqual(await reads(token, 3), [429, 429, 429]);
    await waitFor(/redis unavailable/, 2);
    assert.match(server.output(), /"reason":"Command timed out"/);
    standIn.freeze(false);
    await waitFor(/redis available again/, 2);
    assert.deepEqual(await reads(token, 1), [200]);
    // 3: the read whose answer was held back was counted by Redis too (and here): a hit whose
    // answer times out errs towards being counted twice, never not at all.
    assert.equal(await redis.get(`${prefix}fallback:api:sandbox:${server.credentials.accountId}`), '3');

    // Gone (nothing listens on the port): still answered, one more warning, not one per request.
    await standIn.close();
    // The window counted in the process while Redis stalled is still running: refused, not a 500.
    assert.deepEqual(await reads(token, 3), [429, 429, 429]);
    await waitFor(/redis unavailable/, 3);
    await reads(token, 5);
    await sleep(1500);
    assert.equal(count(/redis unavailable/), 3, server.output());
    assert.equal(count(/redis available again/), 2, server.output());
    assert.doesNotMatch(server.output(), /"level":50|unexpected error/);
  });
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  AirgiftError,
  backoffDelay,
  type FetchLike,
  GiftCards,
  retryAfterMs,
  retryPolicy,
  Topups,
} from '../../sdk/src/index.ts';
import type { TestAccount } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import {
  envelope,
  recordingFetch,
  recordingSleep,
  sandboxOptions,
  syntheticAnswer,
  tlsFetch,
} from './helpers.ts';

describe('backoff arithmetic', () => {
  test('equal jitter: between half and all of base × 2^(n-1), capped', () => {
    const at = (random: number, retry: number) =>
      backoffDelay(retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => random }), retry);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => at(0, n)),
      [50, 100, 200, 400, 500, 500],
    );
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => at(0.999999, n)),
      [100, 200, 400, 800, 1000, 1000],
    );
  });

  test('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T08:00:00Z');
    assert.equal(retryAfterMs('3', now), 3000);
    assert.equal(retryAfterMs('0.5', now), 500);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 08:00:07 GMT', now), 7000);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs(null, now), null);
  });
});

// Faults are injected by a fetch wrapper in front of a real server; the waits are recorded by the
// injected sleep, so the suite takes no real time to back off.
describe('SDK retries against a real server', () => {
  let server: TestServer;
  let account: TestAccount;
  let fetch: ReturnType<typeof tlsFetch>;

  before(async () => {
    server = await startTestServer();
    fetch = tlsFetch();
  });
  // every case has an account of its own: no case sees another's balance or orders
  beforeEach(async () => {
    account = await server.admin.createAccount({ environment: 'sandbox', fund: 100 });
  });
  after(async () => {
    await fetch.close();
    await server.close();
  });

  /** A fetch that answers `faults` (in order) for requests whose path ends with `suffix`, then passes on. */
  function faulty(suffix: string, faults: Array<'network' | { status: number; retryAfter?: string }>) {
    const server = recordingFetch(fetch);
    const wrapper: FetchLike = async (url, init) => {
      if (new URL(url).pathname.endsWith(suffix) && faults.length > 0) {
        const fault = faults.shift()!;
        if (fault === 'network') throw new TypeError('fetch failed');
        const headers: Record<string, string> = fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {};
        const code = fault.status === 429 ? 'RATE_LIMIT_REACHED' : 'SERVICE_UNAVAILABLE';
        return syntheticAnswer(fault.status, envelope(code, suffix), headers);
      }
      return server(url, init);
    };
    return { wrapper, server };
  }

  const client = (wrapper: FetchLike, sleep: (ms: number) => Promise<void>, maxAttempts = 4) =>
    new GiftCards({
      ...sandboxOptions(server, account, 'giftcards', wrapper),
      retry: { maxAttempts, baseDelayMs: 100, sleep, random: () => 0.5 },
    });

  test('429 waits its Retry-After, 503 and a network error wait the jittered backoff', async () => {
    const { wrapper, server: passed } = faulty('/accounts/balance', [
      { status: 429, retryAfter: '2' },
      { status: 503 },
      'network',
    ]);
    const sleep = recordingSleep();
    const balance = await client(wrapper, sleep).balance.get();
    assert.equal(balance.balance, 100);
    // retry 1 after 429: Retry-After 2 s; retry 2 after 503: 100 + 0.5 × 100; retry 3: 200 + 0.5 × 200.
    assert.deepEqual(sleep.waits, [2000, 150, 300]);
    assert.equal(passed.sent.filter((s) => s.path.endsWith('/accounts/balance')).length, 1);
  });

  test("429 without Retry-After backs off; the last attempt's answer is the error", async () => {
    const { wrapper } = faulty('/accounts/balance', [{ status: 429 }, { status: 429 }, { status: 503 }]);
    const sleep = recordingSleep();
    const error = await client(wrapper, sleep, 3)
      .balance.get()
      .then(
        () => assert.fail('three faults with three attempts succeeded'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 503);
    assert.equal(error.errorCode, 'SERVICE_UNAVAILABLE');
    assert.deepEqual(sleep.waits, [75, 150]);
  });

  test('a 503 with Retry-After waits for it too', async () => {
    const { wrapper } = faulty('/accounts/balance', [{ status: 503, retryAfter: '5' }]);
    const sleep = recordingSleep();
    assert.equal((await client(wrapper, sleep).balance.get()).balance, 100);
    assert.deepEqual(sleep.waits, [5000]);
  });

  test('a Retry-After longer than allowed is not waited for', async () => {
    const { wrapper } = faulty('/accounts/balance', [{ status: 429, retryAfter: '3600' }]);
    const sleep = recordingSleep();
    const error = await client(wrapper, sleep)
      .balance.get()
      .catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.errorCode, 'RATE_LIMIT_REACHED');
    assert.deepEqual(sleep.waits, []);
  });

  test('an order without customIdentifier is sent once, whatever happens to it', async () => {
    for (const fault of [{ status: 503 }, { status: 429, retryAfter: '1' }, 'network'] as const) {
      const { wrapper } = faulty('/orders', [fault]);
      const sent: string[] = [];
      const sleep = recordingSleep();
      const giftcards = new GiftCards({
        ...sandboxOptions(server, account, 'giftcards', wrapper),
        retry: { sleep },
        onRequest: (info) => {
          sent.push(`${info.method} ${new URL(info.url).pathname} #${info.attempt}`);
        },
      });
      const error = await giftcards.orders
        .create({ productId: 11, quantity: 1, unitPrice: 10, senderName: 'SDK test' })
        .catch((e: unknown) => e);
      assert.ok(error instanceof AirgiftError, String(error));
      assert.equal(error.status, fault === 'network' ? 0 : fault.status);
      assert.deepEqual(sleep.waits, []);
      assert.deepEqual(sent, ['POST /auth/oauth/token #1', 'POST /giftcards-sandbox/orders #1']);
    }
  });

  test('a top-up without customIdentifier is not retried either', async () => {
    const { wrapper } = faulty('/topups', [{ status: 503 }]);
    const sleep = recordingSleep();
    const topups = new Topups({ ...sandboxOptions(server, account, 'topups', wrapper), retry: { sleep } });
    const error = await topups.orders
      .create({ operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031234567' } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.status, 503);
    assert.deepEqual(sleep.waits, []);
  });

  test('an attempt with no answer within timeoutMs is abandoned and retried', async () => {
    let hung = 0;
    const wrapper: FetchLike = (url, init) => {
      if (new URL(url).pathname.endsWith('/accounts/balance') && hung++ === 0) {
        // Never answers; only the SDK's abort signal ends it.
        return new Promise((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      }
      return fetch(url, init);
    };
    const sleep = recordingSleep();
    const giftcards = new GiftCards({
      ...sandboxOptions(server, account, 'giftcards', wrapper),
      timeoutMs: 2_000, // generous for the real calls (the token's scrypt check on a busy machine)
      retry: { sleep, baseDelayMs: 100, random: () => 0.5 },
    });
    assert.equal((await giftcards.balance.get()).balance, 100);
    assert.deepEqual(sleep.waits, [75]);

    const once = new GiftCards({
      ...sandboxOptions(
        server,
        account,
        'giftcards',
        (_url, init) =>
          new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          ),
      ),
      timeoutMs: 50,
      retry: { maxAttempts: 1 },
    });
    const error = await once.balance.get().catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.errorCode, 'TIMEOUT');
    assert.equal(error.status, 0);
  });

  test('a success whose body is not JSON is an AirgiftError too', async () => {
    const wrapper: FetchLike = async (url, init) =>
      url.endsWith('/accounts/balance')
        ? { status: 200, headers: { get: () => 'req-html' }, text: async () => '<html>maintenance</html>' }
        : fetch(url, init);
    const error = await new GiftCards(sandboxOptions(server, account, 'giftcards', wrapper)).balance
      .get()
      .catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.errorCode, 'INVALID_RESPONSE');
    assert.equal(error.status, 200);
    assert.equal(error.requestId, 'req-html');
  });

  test('onRequest sees every attempt and may add headers', async () => {
    const { wrapper, server: passed } = faulty('/accounts/balance', [{ status: 503 }]);
    const attempts: number[] = [];
    const giftcards = new GiftCards({
      ...sandboxOptions(server, account, 'giftcards', wrapper),
      retry: { sleep: recordingSleep() },
      onRequest: (info) => {
        if (info.url.endsWith('/accounts/balance')) attempts.push(info.attempt);
        info.headers['x-request-id'] = `sdk-test-${info.attempt}`;
      },
    });
    await giftcards.balance.get();
    assert.deepEqual(attempts, [1, 2]);
    assert.equal(passed.sent.length, 2); // the token request and the balance's second attempt
  });
});

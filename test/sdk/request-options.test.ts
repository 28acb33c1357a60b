import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  Admin,
  AirgiftError,
  type FetchInit,
  type FetchLike,
  GiftCards,
  requestIdOf,
  SERVER_ERROR_CODES,
  Topups,
} from '../../sdk/src/index.ts';
import { ADMIN_KEY } from '../harness/client.ts';
import { recordingFetch, recordingSleep, type SdkServer, sandboxOptions, startSdkServer } from './helpers.ts';

// Per-call options (signal, timeout, headers, attempts), errors that name what went wrong on the
// network instead of "fetch failed", and the request id on every result, against a real server.
describe('SDK per-call options, network errors and request ids', () => {
  let s: SdkServer;
  let giftcards: GiftCards;

  before(async () => {
    s = await startSdkServer();
    giftcards = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
  });
  after(() => s.close());

  /** Counts the attempts the SDK makes (token requests included) through `onRequest`. */
  function counting(options: ReturnType<typeof sandboxOptions>) {
    const attempts: string[] = [];
    const sleep = recordingSleep();
    const client = new GiftCards({
      ...options,
      retry: { sleep },
      onRequest: (info) => {
        attempts.push(`${new URL(info.url).pathname} #${info.attempt}`);
      },
    });
    return { client, attempts, sleep };
  }

  test('an untrusted certificate is named, and not retried', async () => {
    // Node's fetch without the test CA: the server's certificate chain is not trusted.
    const dispatcher = new Agent();
    const untrusting = ((url: string, init: FetchInit) =>
      undiciFetch(url, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as FetchLike;
    try {
      const { client, attempts, sleep } = counting(
        sandboxOptions(s.server, s.account, 'giftcards', untrusting),
      );
      const error = await client.balance.get().catch((e: unknown) => e);
      assert.ok(error instanceof AirgiftError, String(error));
      assert.equal(error.errorCode, 'CERTIFICATE_ERROR');
      assert.equal(error.status, 0);
      assert.match(error.message, /certificate is not trusted: .*(self.signed|unable to verify|issuer)/i);
      assert.match(error.message, /NODE_EXTRA_CA_CERTS/);
      assert.doesNotMatch(error.message, /^fetch failed$/);
      assert.deepEqual(attempts, ['/auth/oauth/token #1'], 'one attempt: a certificate does not fix itself');
      assert.deepEqual(sleep.waits, []);
    } finally {
      await dispatcher.close();
    }
  });

  test('a refused connection is named, and retried', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const { client, attempts, sleep } = counting({
      ...sandboxOptions(s.server, s.account, 'giftcards', s.fetch),
      authUrl: `https://127.0.0.1:${port}/auth`,
    });
    const error = await client.balance.get().catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError, String(error));
    assert.equal(error.errorCode, 'CONNECTION_REFUSED');
    assert.match(
      error.message,
      new RegExp(
        `POST https://127.0.0.1:${port}/auth/oauth/token failed after 3 attempts: connection refused.*ECONNREFUSED`,
      ),
    );
    assert.equal(attempts.length, 3);
    assert.equal(sleep.waits.length, 2);
  });

  test('timeoutMs per call: TIMEOUT after that long, retried as a network error', async () => {
    // The server's answer to the balance is held back until the attempt's signal fires.
    const slow: FetchLike = (url, init) =>
      url.endsWith('/accounts/balance')
        ? new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          )
        : s.fetch(url, init);
    const { client, attempts } = counting(sandboxOptions(s.server, s.account, 'giftcards', slow));
    const started = performance.now();
    const error = await client.balance.get({ timeoutMs: 50, maxAttempts: 2 }).catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError, String(error));
    assert.equal(error.errorCode, 'TIMEOUT');
    assert.match(error.message, /no answer within 50 ms/);
    assert.equal(attempts.filter((a) => a.endsWith('/accounts/balance #1') || a.endsWith('#2')).length, 2);
    assert.ok(performance.now() - started < 5000);
  });

  test('an AbortSignal cancels the call: ABORTED, never retried', async () => {
    const controller = new AbortController();
    const held: FetchLike = (url, init) => {
      if (!url.endsWith('/products/11')) return s.fetch(url, init);
      setTimeout(() => controller.abort(new Error('the user left')), 20);
      return new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    };
    const { client, attempts, sleep } = counting(sandboxOptions(s.server, s.account, 'giftcards', held));
    const error = await client.products.get(11, { signal: controller.signal }).catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError, String(error));
    assert.equal(error.errorCode, 'ABORTED');
    assert.match(error.message, /aborted by its signal: the user left/);
    assert.equal(attempts.filter((a) => a.includes('/products/11')).length, 1);
    assert.deepEqual(sleep.waits, []);
    // An already aborted signal sends nothing.
    const before = attempts.length;
    await assert.rejects(client.products.get(11, { signal: AbortSignal.abort() }), { errorCode: 'ABORTED' });
    assert.equal(attempts.length, before);
  });

  test('headers and maxAttempts per call apply to that call only', async () => {
    const recorder = recordingFetch(s.fetch);
    const seen: Array<string | undefined> = [];
    const client = new GiftCards({
      ...sandboxOptions(s.server, s.account, 'giftcards', recorder),
      headers: { 'x-client': 'suite' },
      onRequest: (info) => {
        if (info.url.includes('/product-categories'))
          seen.push(`${info.headers['x-client']} ${info.headers['x-trace']}`);
      },
    });
    await client.categories.list({ headers: { 'x-trace': 'abc' } });
    await client.categories.list();
    assert.deepEqual(seen, ['suite abc', 'suite undefined']);

    const unavailable: FetchLike = async (url, init) =>
      url.endsWith('/accounts/balance')
        ? { status: 503, headers: { get: () => null }, text: async () => '' }
        : s.fetch(url, init);
    const { client: once, attempts } = counting(
      sandboxOptions(s.server, s.account, 'giftcards', unavailable),
    );
    await assert.rejects(once.balance.get({ maxAttempts: 1 }), { status: 503 });
    assert.equal(attempts.filter((a) => a.endsWith('/accounts/balance #1')).length, 1);
    assert.equal(attempts.filter((a) => a.includes('/accounts/balance')).length, 1);
  });

  test('a 4xx answer is never retried: asking again cannot change it', async () => {
    const { client, attempts, sleep } = counting(sandboxOptions(s.server, s.account, 'giftcards', s.fetch));
    await assert.rejects(client.products.get(99_999), { status: 400 });
    await assert.rejects(
      client.countries.get('QQ'),
      (e: unknown) => e instanceof AirgiftError && e.status >= 400 && e.status < 500,
    );
    assert.deepEqual(
      attempts.filter((a) => !a.startsWith('/auth/')),
      ['/giftcards-sandbox/products/99999 #1', '/giftcards-sandbox/countries/QQ #1'],
    );
    assert.deepEqual(sleep.waits, []);
  });

  test('admin.with(options): per-call options for the admin client', async () => {
    const seen: string[] = [];
    const admin = new Admin({
      adminKey: ADMIN_KEY,
      baseUrl: `${s.server.url}/admin`,
      fetch: s.fetch,
      onRequest: (info) => {
        seen.push(`${new URL(info.url).pathname} ${info.headers['x-trace'] ?? '-'}`);
      },
    });
    const traced = admin.with({ headers: { 'x-trace': 'ops-1' } });
    assert.ok((await traced.accounts.list({ size: 1 })).items.length > 0);
    await admin.accounts.list({ size: 1 });
    assert.deepEqual(seen, ['/admin/accounts ops-1', '/admin/accounts -']);
    await assert.rejects(admin.with({ signal: AbortSignal.abort() }).ledger.audit(), {
      errorCode: 'ABORTED',
    });
  });

  test('every result carries the request id of its answer, out of the way of the data', async () => {
    const recorder = recordingFetch(s.fetch);
    const ids: string[] = [];
    const traced: FetchLike = async (url, init) => {
      const response = await recorder(url, init);
      const id = response.headers.get('x-request-id');
      if (id) ids.push(id);
      return response;
    };
    const client = new GiftCards(sandboxOptions(s.server, s.account, 'giftcards', traced));
    const balance = await client.balance.get();
    assert.equal(balance.requestId, ids.at(-1));
    assert.equal(requestIdOf(balance), ids.at(-1));
    assert.ok(!('requestId' in JSON.parse(JSON.stringify(balance))), 'not in the JSON of the data');
    assert.ok(!Object.keys(balance).includes('requestId'));
    const categories = await client.categories.list();
    assert.equal(categories.requestId, ids.at(-1), 'arrays carry it too');
    const page = await client.products.list({ size: 2 });
    assert.equal(page.requestId, ids.at(-1));
    const topups = new Topups(sandboxOptions(s.server, s.account, 'topups', traced));
    const error = await topups.operators.get(999_999_999).catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    assert.equal(error.requestId, ids.at(-1));
    assert.equal(error.status, 404);
  });

  test('errorCode is a union of the documented codes', async () => {
    const error = await giftcards.products.get(99_999).catch((e: unknown) => e);
    assert.ok(error instanceof AirgiftError);
    // @ts-expect-error a misspelt code does not compile: the union has no such member
    const misspelt = error.errorCode === 'RESOURCE_NOT_FOUNDD';
    assert.equal(misspelt, false);
    assert.ok((SERVER_ERROR_CODES as readonly string[]).includes(error.errorCode), error.errorCode);
    assert.match(error.message, /Product 99999 does not exist/);
  });
});

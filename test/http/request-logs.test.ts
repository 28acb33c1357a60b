import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, AUDIENCES } from '../harness/client.ts';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';

// What the server process writes to its log at level info, read back from its stdout: one access
// line per request (http/access-log.ts) with the URL as the client sent it (not the internal mounts
// the bases are rewritten to), a 503 the code chose (the sandbox's 99993) as a warning without a
// stack trace, and every line of an answered request written before a SIGTERM's exit.
describe('request logs', () => {
  let server: ServerProcess;
  const lines = () =>
    server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);

  /** The process's log reaches us through a pipe, possibly after the answer: wait for its lines. */
  async function linesOf(reqId: unknown, match: (l: Record<string, any>) => boolean) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = lines().filter((l) => l.reqId === reqId && match(l));
      if (found.length > 0 || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  before(async () => {
    server = await startServerProcess({ LOG_LEVEL: 'info' });
  });
  after(() => server.cleanup());

  test('one access line per request, with the public path, not the internal mount', async () => {
    const listed = await server.http.get('/admin/accounts?size=1', {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    assert.equal(listed.status, 200);
    const id = listed.headers['x-request-id'];
    const [line, ...more] = await linesOf(id, () => true);
    assert.ok(line, server.output().slice(-2000));
    assert.deepEqual(more, [], 'one line per request');
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.equal(line.url, '/admin/accounts?size=1');
    assert.equal(line.method, 'GET');
    assert.equal(line.statusCode, 200);
    assert.equal(typeof line.responseTime, 'number');
    assert.equal(typeof line.time, 'number');
    assert.equal(line.remoteAddress, '127.0.0.1');
    assert.equal(line.accountId, undefined, 'the admin key names no account');
    assert.doesNotMatch(server.output(), /incoming request/);
    assert.doesNotMatch(server.output(), /"\/_(admin|auth|giftcards|topups|shared|unmatched)\//);
  });

  test("the sandbox's 503 is a warning with its code, without a stack trace", async () => {
    const token = await server.token(AUDIENCES.topupsSandbox);
    const busy = await server.http.post(
      '/topups-sandbox/topups',
      { operatorId: 1001, amount: 5, recipientPhone: { countryCode: 'NG', number: '08031299993' } },
      { token, headers: { accept: 'application/com.airgift.topups-v1+json' } },
    );
    assert.equal(busy.status, 503);
    const id = busy.headers['x-request-id'];
    await linesOf(id, (l) => l.level >= 40);
    await new Promise((r) => setTimeout(r, 200)); // a second warning would come right behind the first
    const logged = lines().filter((l) => l.reqId === id && l.level >= 40);
    assert.equal(logged.length, 1, JSON.stringify(logged));
    assert.equal(logged[0]!.level, 40, 'warn, not error');
    assert.equal(logged[0]!.errorCode, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT');
    assert.equal(logged[0]!.err, undefined);
    assert.doesNotMatch(JSON.stringify(logged[0]), /stack|at .*\.ts:\d+/);
  });

  test('an answer from the fast lane is logged like any other', async () => {
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    const read = (id: string) =>
      server.http.get('/giftcards-sandbox/products/1840', {
        token,
        headers: { accept: 'application/json', 'x-request-id': id },
      });
    const lane = async () =>
      Number(
        /^airgift_fast_lane_answers_total (\d+)$/m.exec(
          (await server.admin.call('GET', '/metrics')).body,
        )?.[1],
      );
    assert.equal((await read('log-first')).status, 200);
    // The lane serves a kept answer only while the catalogue's change poller is fresh, which a loaded
    // machine can delay: read until one answer came from it (bounded).
    let keptId = '';
    for (let i = 0; i < 50 && !keptId; i++) {
      const before = await lane();
      assert.equal((await read(`log-kept-${i}`)).status, 200);
      if ((await lane()) === before + 1) keptId = `log-kept-${i}`;
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(keptId, 'a read was answered by the lane');
    const kept = await linesOf(keptId, () => true);
    const usual = await linesOf('log-first', () => true);
    assert.equal(kept.length, 1, server.output().slice(-2000));
    assert.equal(usual.length, 1, server.output().slice(-2000));
    const [k, u] = [kept[0]!, usual[0]!];
    assert.deepEqual(Object.keys(k), Object.keys(u), 'the same fields in the same order');
    for (const [line, id] of [
      [k, keptId],
      [u, 'log-first'],
    ] as const) {
      assert.equal(line.msg, 'request completed');
      assert.equal(line.reqId, id);
      assert.equal(line.url, '/giftcards-sandbox/products/1840');
      assert.equal(line.statusCode, 200);
      assert.equal(line.accountId, server.credentials.accountId);
      assert.equal(line.clientId, server.credentials.clientId);
      assert.equal(typeof line.responseTime, 'number');
    }
    assert.equal(k.host, u.host);
    assert.equal(k.remoteAddress, u.remoteAddress);
  });

  test('a secret in the URL or the request id is censored in the access line', async () => {
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    const secret = 'sk_test_abcdefgh12345678';
    const read = await server.http.get(
      `/giftcards-sandbox/products?size=1&api_key=${ADMIN_KEY}&x=${secret}`,
      {
        token,
        headers: { accept: 'application/json', 'x-request-id': secret },
      },
    );
    assert.equal(read.headers['x-request-id'], secret);
    const [line] = await linesOf('[redacted]', (l) => l.url?.includes('api_key'));
    assert.ok(line, server.output().slice(-2000));
    assert.equal(line.url, '/giftcards-sandbox/products?size=1&api_key=[redacted]&x=[redacted]');
    assert.ok(!server.output().includes(secret));
    assert.ok(!server.output().includes(ADMIN_KEY));
  });

  // Last: it stops the server.
  test('SIGTERM: every request answered before it has its line when the process has exited', async () => {
    const token = await server.token(AUDIENCES.giftcardsSandbox);
    const ids = Array.from({ length: 300 }, (_, i) => `before-stop-${i}`);
    for (let i = 0; i < ids.length; i += 50) {
      const answers = await Promise.all(
        ids.slice(i, i + 50).map((id) =>
          server.http.get('/giftcards-sandbox/products/1840', {
            token,
            headers: { accept: 'application/json', 'x-request-id': id },
          }),
        ),
      );
      assert.ok(answers.every((a) => a.status === 200));
    }
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    assert.equal(exit.code, 0, server.output().slice(-2000));
    const logged = new Set(lines().map((l) => l.reqId));
    assert.deepEqual(
      ids.filter((id) => !logged.has(id)),
      [],
    );
    assert.ok(lines().some((l) => l.msg === 'stopped'));
  });
});

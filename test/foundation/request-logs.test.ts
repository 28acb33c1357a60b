import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY } from '../harness/server.ts';
import { AUDIENCES, type ServerProcess, startServerProcess } from '../harness/server-process.ts';

// What the server process writes to its log at level info, read back from its stdout: request URLs
// as the client sent them (not the internal mounts the bases are rewritten to), and a 503 the code
// chose (the sandbox's 99993) as a warning without a stack trace.
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

  test('request URLs are the public paths, not the internal mounts', async () => {
    const listed = await server.http.get('/admin/accounts?size=1', {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    assert.equal(listed.status, 200);
    const id = listed.headers['x-request-id'];
    const incoming = (await linesOf(id, (l) => l.req))[0];
    assert.ok(incoming, server.output().slice(-2000));
    assert.equal(incoming.req.url, '/admin/accounts?size=1');
    assert.equal(incoming.req.method, 'GET');
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
      Number(/^airgift_fast_lane_answers_total (\d+)$/m.exec((await server.adminGet('/metrics')).body)?.[1]);
    assert.equal((await read('log-first')).status, 200);
    const before = await lane();
    assert.equal((await read('log-kept')).status, 200);
    assert.equal(await lane(), before + 1, 'the second read was answered by the lane');
    const [incoming] = await linesOf('log-kept', (l) => l.msg === 'incoming request');
    const [completed] = await linesOf('log-kept', (l) => l.msg === 'request completed');
    assert.ok(incoming && completed, server.output().slice(-2000));
    const [usual] = await linesOf('log-first', (l) => l.msg === 'incoming request');
    assert.deepEqual(Object.keys(incoming.req).sort(), Object.keys(usual.req).sort());
    assert.equal(incoming.req.url, '/giftcards-sandbox/products/1840');
    assert.equal(incoming.req.host, usual.req.host);
    assert.equal(completed.res.statusCode, 200);
    assert.equal(typeof completed.responseTime, 'number');
  });
});

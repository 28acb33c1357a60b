import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { AccessLogController } from '../../src/http/access-log.ts';
import { lazyRequestLogger } from '../../src/http/request-log.ts';
import { LOG_REDACTION } from '../../src/lib/log-redaction.ts';

// Each request's logger is made only when a line is written (http/request-log.ts): a request that
// logs nothing makes no pino child; one that logs writes the same line, its request id bound and its
// secrets redacted, as Fastify's own child would.
test('a request logger is made when used, and its lines are the usual ones', async () => {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: {
      level: 'info',
      redact: LOG_REDACTION,
      stream: { write: (line: string) => lines.push(JSON.parse(line)) },
    },
    childLoggerFactory: lazyRequestLogger,
    // as the server has it: no request lines of Fastify's own (the access line is built apart)
    logController: new AccessLogController(null),
    genReqId: () => `req_${lines.length}`,
  });
  // counts the children made of the server's logger or of its children (they inherit this method)
  let children = 0;
  const child = app.log.child;
  app.log.child = function (this: typeof app.log, ...args: Parameters<typeof child>) {
    children++;
    return child.apply(this, args);
  };
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/loud', async (request) => {
    request.log.warn({ headers: { authorization: 'Bearer abc.def' }, n: 1 }, 'a warning');
    request.log.info('then %s', 'more');
    assert.equal(request.log.level, 'info');
    request.log.child({ step: 2 }).error('from a child');
    return { ok: true };
  });
  try {
    assert.equal((await app.inject({ url: '/quiet' })).statusCode, 200);
    assert.equal(children, 0, 'a request that logs nothing makes no child');
    assert.equal(lines.length, 0);
    assert.equal((await app.inject({ url: '/loud' })).statusCode, 200);
    // the request's own child for its lines, and the one it asked for (a child of that one)
    assert.equal(children, 2);
    assert.equal(lines.length, 3);
    const [warn, info, error] = lines;
    assert.equal(warn!.level, 40);
    assert.equal(warn!.msg, 'a warning');
    assert.equal(warn!.reqId, 'req_0');
    assert.equal(warn!.n, 1);
    assert.deepEqual(warn!.headers, { authorization: '[redacted]' });
    assert.equal(info!.msg, 'then more');
    assert.equal(info!.reqId, 'req_0');
    assert.equal(error!.level, 50);
    assert.equal(error!.step, 2);
    assert.equal(error!.reqId, 'req_0');
  } finally {
    await app.close();
  }
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAccessLog } from '../../src/http/access-log.ts';
import { createLogDestination } from '../../src/lib/log-destination.ts';
import { logLineMasker, maskSecrets, redactUrl } from '../../src/lib/log-redaction.ts';

const ADMIN = 'adm-key-0123456789abcdef';

function collector(level = true) {
  const lines: string[] = [];
  const log = createAccessLog({
    write: (l) => lines.push(l),
    mask: logLineMasker([ADMIN]),
    enabled: () => level,
  });
  return { lines, log };
}

test('the access line: one JSON line with pino’s head, the request’s fields and the caller', () => {
  const { lines, log } = collector();
  log.write({
    reqId: 'req_1',
    method: 'GET',
    url: '/giftcards-sandbox/products?size=1',
    host: 'localhost:8443',
    statusCode: 200,
    ms: 0.41234,
    remoteAddress: '127.0.0.1',
    accountId: 7,
    clientId: 'c1',
  });
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.endsWith('}\n'));
  assert.equal(lines[0]!.indexOf('\n'), lines[0]!.length - 1, 'one line');
  const line = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(line), [
    'level',
    'time',
    'pid',
    'hostname',
    'reqId',
    'method',
    'url',
    'host',
    'statusCode',
    'responseTime',
    'remoteAddress',
    'accountId',
    'clientId',
    'msg',
  ]);
  assert.equal(line.level, 30);
  assert.equal(line.pid, process.pid);
  assert.ok(Math.abs(line.time - Date.now()) < 5000);
  assert.equal(line.responseTime, 0.412);
  assert.equal(line.msg, 'request completed');

  log.write({ reqId: 'req_2', method: 'POST', url: '/admin/x', host: undefined, statusCode: 404, ms: 1 });
  const bare = JSON.parse(lines[1]!);
  assert.equal(bare.host, '');
  assert.equal('accountId' in bare || 'clientId' in bare || 'remoteAddress' in bare, false);
});

test('what a client chose is masked and escaped: URL, Host and request id', () => {
  const { lines, log } = collector();
  log.write({
    reqId: 'sk_test_abcdefgh12345678',
    method: 'GET',
    url: `/admin/accounts?key=abc&q=${ADMIN}&name="quoted"\n`,
    host: `evil"host ${ADMIN}`,
    statusCode: 400,
    ms: 2,
  });
  const text = lines[0]!;
  assert.ok(!text.includes(ADMIN));
  assert.ok(!text.includes('sk_test_abcdefgh12345678'));
  const line = JSON.parse(text);
  assert.equal(line.reqId, '[redacted]');
  assert.equal(line.url, '/admin/accounts?key=[redacted]&q=[redacted]&name="quoted"\n');
  assert.equal(line.host, 'evil"host [redacted]');
});

test('nothing is built or written while the logger is above info', () => {
  const { lines, log } = collector(false);
  assert.equal(log.enabled(), false);
  assert.equal(lines.length, 0);
});

test('the masker’s shortcuts change nothing: each shape is still censored wherever it occurs', () => {
  assert.equal(
    maskSecrets('/r/abcdefghijklmnopqrstu and /r/r/abcdefghijklmnopqrstu'),
    '/r/[redacted] and /r/r/[redacted]',
  );
  assert.equal(maskSecrets('a sk_live_abcdefgh123 b'), 'a [redacted] b');
  assert.equal(maskSecrets('whsec_abcdefgh1234'), '[redacted]');
  assert.equal(maskSecrets('eyJabcdefghij.eyJabcdefghij.sig'), '[redacted]');
  assert.equal(maskSecrets('/products/1840'), '/products/1840');
  assert.equal(
    redactUrl('/x?api_key=1&Password=2&page=3'),
    '/x?api_key=[redacted]&Password=[redacted]&page=3',
  );
  assert.equal(redactUrl('/x/key/token'), '/x/key/token');
});

test('the log destination writes every line, in order, and flush() waits for them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'airgift-log-'));
  try {
    const file = join(dir, 'out.log');
    const fd = fs.openSync(file, 'w');
    const logs = createLogDestination(fd);
    const sent: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const line = `{"n":${i},"pad":"${'x'.repeat(i % 50)}"}\n`;
      sent.push(line);
      logs.write(line);
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    await logs.flush(5000);
    assert.equal(await readFile(file, 'utf8'), sent.join(''));
    assert.equal(logs.dropped, 0);
    fs.closeSync(fd);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

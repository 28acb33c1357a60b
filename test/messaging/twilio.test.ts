import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { loadTls } from '../../src/http/tls.ts';
import { twilioTransport } from '../../src/modules/messaging/transports/twilio-transport.ts';
import { CACHE_DIR } from '../harness/templates.ts';

// Issue 26: the Twilio driver against a local HTTPS server speaking the Messages API's shape:
// POST /2010-04-01/Accounts/{sid}/Messages.json, HTTP Basic, a form body; 201 with a sid is sent,
// 400 with code 21211 is permanent, 429 and 503 are temporary.
let server: Server;
let port: number;
let ca: string;
const requests: { path: string; auth: string; body: URLSearchParams }[] = [];
let answer: { status: number; body: object } = { status: 201, body: { sid: 'SM123', status: 'queued' } };

before(async () => {
  const tls = await loadTls({ dataDir: CACHE_DIR, hosts: ['localhost'] });
  ca = tls.caPath ? await readFile(tls.caPath, 'utf8') : tls.cert;
  server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        auth: req.headers.authorization ?? '',
        body: new URLSearchParams(Buffer.concat(chunks).toString()),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('Twilio Messages API: sent, permanent and temporary refusals', async () => {
  const sms = twilioTransport({ url: `twilio://AC0123:s3cret@localhost:${port}`, from: '+15005550006', ca });
  try {
    const sent = await sms.send({ channel: 'sms', to: '+447700900123', text: 'Hello there' });
    assert.deepEqual(sent, { ok: true, providerId: 'SM123' });
    const r = requests.at(-1);
    assert.equal(r?.path, '/2010-04-01/Accounts/AC0123/Messages.json');
    assert.equal(r?.auth, `Basic ${Buffer.from('AC0123:s3cret').toString('base64')}`);
    assert.deepEqual(Object.fromEntries(r?.body ?? []), {
      To: '+447700900123',
      From: '+15005550006',
      Body: 'Hello there',
    });

    answer = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } };
    const invalid = await sms.send({ channel: 'sms', to: '+1', text: 'x' });
    assert.equal(invalid.ok, false);
    assert.equal(!invalid.ok && invalid.permanent, true);
    assert.match(!invalid.ok ? invalid.error : '', /21211/);

    for (const status of [429, 503]) {
      answer = { status, body: { code: 20429, message: 'Too many requests' } };
      const busy = await sms.send({ channel: 'sms', to: '+447700900123', text: 'x' });
      assert.equal(!busy.ok && busy.permanent, false, `${status} is temporary`);
    }
  } finally {
    await sms.close();
  }
});

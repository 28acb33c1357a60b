import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ADMIN_KEY, startTestServer, type TestServer } from '../harness/server.ts';
import { CACHE_DIR } from '../harness/templates.ts';

// `airgift webhooks …` through the admin API, on a server with the default SSRF rule (no private
// targets): add (secret shown once), list, threshold, deliveries, remove; a loopback URL refused.
const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'airgift.mjs');
let server: TestServer;
let env: NodeJS.ProcessEnv;
before(async () => {
  server = await startTestServer();
  env = {
    ...process.env,
    AIRGIFT_URL: server.url,
    AIRGIFT_ADMIN_KEY: ADMIN_KEY,
    AIRGIFT_CA_FILE: join(CACHE_DIR, 'tls', 'ca.crt'),
  };
});
after(() => server.close());

const airgift = async (...args: string[]) =>
  JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { env })).stdout);

test('webhooks add / list / threshold / deliveries / remove', async () => {
  const account = await server.admin.createAccount({ fund: 10 });
  const id = String(account.accountId);
  await assert.rejects(
    airgift(
      'webhooks',
      'add',
      '--account',
      id,
      '--environment',
      'sandbox',
      '--url',
      'https://127.0.0.1/x',
      '--events',
      '*',
    ),
    /not allowed/,
  );
  const added = await airgift(
    ...['webhooks', 'add', '--account', id, '--environment', 'sandbox'],
    ...['--url', 'https://hooks.example.com/airgift', '--events', 'giftcard.order.*,topup.*'],
  );
  assert.match(added.secret, /^whsec_/);
  assert.deepEqual(added.events, ['giftcard.order.*', 'topup.*']);
  const listed = await airgift('webhooks', 'list', '--account', id);
  assert.deepEqual(
    listed.items.map((e: { id: number; secret?: string }) => [e.id, e.secret]),
    [[added.id, undefined]],
  );
  const threshold = await airgift(
    'webhooks',
    'threshold',
    '--account',
    id,
    '--environment',
    'sandbox',
    '--amount',
    '5',
  );
  assert.deepEqual(threshold.thresholds, [{ environment: 'sandbox', threshold: 5 }]);
  const deliveries = await airgift('webhooks', 'deliveries', String(added.id));
  assert.equal(deliveries.total, 0);
  const removed = await airgift('webhooks', 'remove', String(added.id));
  assert.equal(removed.id, added.id);
  assert.deepEqual((await airgift('webhooks', 'list', '--account', id)).items, []);
  await assert.rejects(
    airgift(
      'webhooks',
      'add',
      '--account',
      id,
      '--environment',
      'sandbox',
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'order.*',
    ),
    /No event type matches/,
  );
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { airgiftCli } from '../harness/cli.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// `airgift webhooks …` through the admin API, on a server with the default SSRF rule (no private
// targets): add (secret shown once), list, threshold, deliveries, remove; a loopback URL refused.
let server: TestServer;
let cli: ReturnType<typeof airgiftCli>;
before(async () => {
  server = await startTestServer();
  cli = airgiftCli(server.url);
});
after(() => server.close());

const airgift = async (...args: string[]) => JSON.parse((await cli(...args, '--json')).stdout);
/** `webhooks add` for the sandbox of account `id`, with any further options. */
const addWebhook = (id: string, url: string, events: string, ...options: string[]) =>
  airgift(
    'webhooks',
    'add',
    '--account',
    id,
    '--environment',
    'sandbox',
    '--url',
    url,
    '--events',
    events,
    ...options,
  );

test('webhooks add / list / threshold / deliveries / remove', async () => {
  const account = await server.admin.createAccount({ fund: 10 });
  const id = String(account.accountId);
  await assert.rejects(addWebhook(id, 'https://127.0.0.1/x', '*'), /not allowed/);
  const added = await addWebhook(id, 'https://hooks.example.com/airgift', 'giftcard.order.*,topup.*');
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
  await assert.rejects(addWebhook(id, 'https://hooks.example.com/x', 'order.*'), /No event type matches/);
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { airgiftCli } from '../harness/cli.ts';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

// The operator's activate/deactivate of top-up operators (migration 0014): a deactivated operator is
// not served anywhere an operator is (lists, by id, by country, auto-detect, FX rate), commissions
// show it inactive, and a top-up to it is 422 OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE with nothing
// debited; activating brings it back, and also turns on an operator the data files have inactive.
let server: TestServer;
let c: Caller;
let live: Caller;
before(async () => {
  server = await startTestServer();
  c = await server.caller('topups', 'sandbox', { fund: 1000 });
  live = await server.caller('topups', 'live', { fund: 100 });
});
after(() => server.close());

const MTN_NG = 1001;
const admin = (action: string, id: number | string) =>
  server.admin.call('POST', `/topup-operators/${id}/${action}`);
const balance = async () => (await c.get('/accounts/balance')).body.balance as number;
/** A 10.00 top-up of an MTN Nigeria number. */
const topUpMtn = () =>
  c.post('/topups', {
    operatorId: MTN_NG,
    amount: 10,
    recipientPhone: { countryCode: 'NG', number: '08031234567' },
  });
const listed = async (caller: Caller, path: string) =>
  ((await caller.get(path)).body as { operatorId: number }[] | { content: { operatorId: number }[] }) ?? [];
const ids = (body: Awaited<ReturnType<typeof listed>>) =>
  (Array.isArray(body) ? body : body.content).map((o) => o.operatorId);

describe('top-up operator status', () => {
  test('served while active', async () => {
    assert.equal((await c.get(`/operators/${MTN_NG}`)).status, 200);
    assert.ok(ids(await listed(c, '/operators/countries/NG')).includes(MTN_NG));
    const detected = await c.get('/operators/auto-detect/phone/08031234567/countries/NG');
    assert.equal(detected.body.operatorId, MTN_NG);
  });

  test('deactivated: not served on either environment, refused with 422, nothing debited', async () => {
    const off = await admin('deactivate', MTN_NG);
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body, { operatorId: MTN_NG, status: 'INACTIVE' });
    for (const caller of [c, live]) {
      const byId = await caller.get(`/operators/${MTN_NG}`);
      assert.equal(byId.status, 404);
      assert.equal(byId.body.errorCode, 'RESOURCE_NOT_FOUND');
      assert.ok(!ids(await listed(caller, '/operators/countries/NG')).includes(MTN_NG));
      assert.ok(!ids(await listed(caller, '/operators?countryCode=NG&size=200')).includes(MTN_NG));
      const detect = await caller.get('/operators/auto-detect/phone/08031234567/countries/NG');
      assert.equal(detect.status, 404);
      assert.equal(detect.body.errorCode, 'COULD_NOT_AUTO_DETECT_OPERATOR');
      assert.equal((await caller.post('/operators/fx-rate', { operatorId: MTN_NG, amount: 10 })).status, 404);
      const commission = await caller.get(`/operators/${MTN_NG}/commissions`);
      assert.equal(commission.status, 200);
      assert.equal(commission.body.operator.status, false);
    }
    const before = await balance();
    const refused = await topUpMtn();
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.errorCode, 'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE');
    assert.equal(await balance(), before, 'nothing debited');
  });

  test('activated again: served and takes top-ups', async () => {
    const on = await admin('activate', MTN_NG);
    assert.deepEqual(on.body, { operatorId: MTN_NG, status: 'ACTIVE' });
    assert.equal((await c.get(`/operators/${MTN_NG}`)).status, 200);
    const sent = await topUpMtn();
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.status, 'SUCCESSFUL');
  });

  test('an operator the data files have inactive can be activated, and deactivated back', async () => {
    const inactive = server.runtime.services.topups.operators.all.find((o) => !o.status);
    assert.ok(inactive);
    assert.equal((await c.get(`/operators/${inactive.operatorId}`)).status, 404);
    assert.equal((await admin('activate', inactive.operatorId)).status, 200);
    const shown = await c.get(`/operators/${inactive.operatorId}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.operatorId, inactive.operatorId);
    const commission = await c.get(`/operators/${inactive.operatorId}/commissions`);
    assert.equal(commission.body.operator.status, true);
    assert.equal((await admin('deactivate', inactive.operatorId)).status, 200);
    assert.equal((await c.get(`/operators/${inactive.operatorId}`)).status, 404);
  });

  test('an unknown operator is 404, an id out of range 400; the status is kept by id in the database', async () => {
    const unknown = await admin('deactivate', 999_999);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errorCode, 'RESOURCE_NOT_FOUND');
    assert.equal((await admin('activate', '2147483648')).status, 400);
    const rows = await server.db.kysely
      .selectFrom('topup_operator_statuses')
      .select(['operator_id', 'status'])
      .orderBy('operator_id')
      .execute();
    assert.deepEqual(
      rows.find((r) => r.operator_id === MTN_NG),
      { operator_id: MTN_NG, status: 'ACTIVE' },
    );
  });

  test('the CLI: topup-operators deactivate|activate (through the SDK Admin client)', async () => {
    const run = airgiftCli(server.url);
    const off = JSON.parse((await run('topup-operators', 'deactivate', String(MTN_NG), '--json')).stdout);
    assert.deepEqual(off, { operatorId: MTN_NG, status: 'INACTIVE' });
    assert.equal((await c.get(`/operators/${MTN_NG}`)).status, 404);
    const on = await run('topup-operators', 'activate', String(MTN_NG));
    assert.equal(on.stdout, `top-up operator ${MTN_NG} is ACTIVE\n`);
    assert.equal((await c.get(`/operators/${MTN_NG}`)).status, 200);
  });
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { postgresForTests, startTestServer, type TestServer } from '../harness/server.ts';
import { sandboxCaller } from './helpers.ts';

// On the real PostgreSQL server: 100 concurrent top-ups from an account that can afford 40 give
// exactly 40 transactions and 40 debits; balance == sum of entries; never below zero.
const pg = await postgresForTests();

let server: TestServer;
before(async () => {
  if (pg) server = await startTestServer({ database: 'postgres' });
});
after(() => server?.close());

test('100 concurrent top-ups that can afford 40 -> exactly 40', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  // MTN Nigeria, 6% international discount: a 10.00 top-up costs 9.40; 376.00 pays for exactly 40.
  const c = await sandboxCaller(server, { fund: '376.00' });
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      c.post('/topups', {
        operatorId: 1001,
        amount: 10,
        customIdentifier: `load-${i}`,
        recipientPhone: { countryCode: 'NG', number: `0803${String(5000000 + i)}` },
      }),
    ),
  );
  const ok = answers.filter((a) => a.status === 200);
  assert.equal(ok.length, 40);
  const refused = answers.filter((a) => a.status !== 200);
  assert.ok(refused.every((a) => a.status === 403 && a.body.errorCode === 'INSUFFICIENT_BALANCE'));
  assert.equal((await c.get('/accounts/balance')).body.balance, 0);
  const rows = await sql<{ n: string; debits: string }>`
    SELECT (SELECT count(*) FROM topup_transactions WHERE account_id = ${c.account.accountId})::text AS n,
           (SELECT count(*) FROM ledger_entries WHERE account_id = ${c.account.accountId} AND kind = 'ORDER_DEBIT')::text AS debits`.execute(
    server.db.kysely,
  );
  assert.deepEqual(rows.rows[0], { n: '40', debits: '40' });
  assert.deepEqual(await server.admin.audit(), []);
});

test('concurrent sends to one number: one top-up, the rest PHONE_RECENTLY_RECHARGED', {
  skip: !pg && 'PostgreSQL not reachable',
}, async () => {
  const c = await sandboxCaller(server, { fund: 1000 });
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      c.post('/topups', {
        operatorId: 1001,
        amount: 10,
        recipientPhone: { countryCode: 'NG', number: '08039999000' },
      }),
    ),
  );
  assert.equal(answers.filter((a) => a.status === 200).length, 1);
  assert.ok(
    answers.filter((a) => a.status !== 200).every((a) => a.body.errorCode === 'PHONE_RECENTLY_RECHARGED'),
  );
  assert.deepEqual(await server.admin.audit(), []);
});
